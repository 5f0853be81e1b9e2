"""Compiling rule files into rulesets: the language layer reads them, the model holds
them, and each family's play section is read through that family's contract."""

from .core import FORMAT_VERSION, LANGUAGE_VERSION
from .files import compile_document, compile_file, load_merged, read_document, resolve_source

__all__ = ["FORMAT_VERSION", "LANGUAGE_VERSION", "compile_document", "compile_file",
           "load_merged", "read_document", "resolve_source"]
