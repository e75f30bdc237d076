from .impl import area

__all__ = ["area"]
