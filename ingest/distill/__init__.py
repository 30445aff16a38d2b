"""Distillers turn an observation's text into draft assertions for the gate."""

from ingest.distill.base import Distiller, Draft, ObservationIn

__all__ = ["Distiller", "Draft", "ObservationIn"]
