"""Distillers turn an observation's text into draft assertions for the gate."""

from graph_schema.observations.types import ObservationIn
from ingest.distill.base import Distiller, Draft

__all__ = ["Distiller", "Draft", "ObservationIn"]
