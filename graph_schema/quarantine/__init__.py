"""The quarantine: what the gate refused and why, unconnected to the record."""
