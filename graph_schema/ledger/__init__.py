"""The ledger of assertions: slots, versions, valid-time planning, disclosures, fact reads."""
