"""`extends:` — merging a child ruleset over its parent, keeping source positions.

Rules (docs/language.md):
- mappings merge key by key, recursively; a child value of null deletes the key;
- lists whose items all carry a `name` merge by name: a child item replaces the
  parent's item of that name in place, new names are appended, and
  `{name: x, remove: true}` deletes one;
- every other list and every scalar is replaced by the child's;
- `id`, `name`, `version` and `extends` are never inherited.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .yamlio import Document, Mark

NOT_INHERITED = ("id", "name", "version", "extends")


def _is_named_list(value: Any) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(i, dict) and isinstance(i.get("name"), str) for i in value))


class _Merger:
    def __init__(self, parent: Document, child: Document):
        self.parent = parent
        self.child = child
        self.out = Document(child.file, None)

    def copy_marks(self, src: Document, src_path: tuple, dst_path: tuple) -> None:
        n = len(src_path)
        for table_src, table_dst in ((src.values, self.out.values), (src.keys, self.out.keys)):
            for path, mark in table_src.items():
                if path[:n] == src_path:
                    new = dst_path + path[n:]
                    table_dst[new] = replace(mark, file=mark.file or src.file)

    def copy_one(self, src: Document, src_path: tuple, dst_path: tuple) -> None:
        for table_src, table_dst in ((src.values, self.out.values), (src.keys, self.out.keys)):
            if src_path in table_src:
                m = table_src[src_path]
                table_dst[dst_path] = replace(m, file=m.file or src.file)

    def merge(self, p: Any, c: Any, p_path: tuple, c_path: tuple, out_path: tuple) -> Any:
        if isinstance(p, dict) and isinstance(c, dict):
            self.copy_one(self.child, c_path, out_path)
            result: dict[str, Any] = {}
            for key, value in p.items():
                if key in c or (not out_path and key in NOT_INHERITED):
                    continue
                result[key] = value
                self.copy_marks(self.parent, p_path + (key,), out_path + (key,))
            for key, value in c.items():
                if value is None:
                    continue  # a null in the child deletes the parent's key
                if key in p and not (not out_path and key in NOT_INHERITED):
                    self.copy_one(self.child, c_path + (key,), out_path + (key,))
                    result[key] = self.merge(p[key], value, p_path + (key,), c_path + (key,),
                                             out_path + (key,))
                else:
                    result[key] = value
                    self.copy_marks(self.child, c_path + (key,), out_path + (key,))
            return result
        if _is_named_list(p) and _is_named_list(c):
            items: list[Any] = []
            origin: list[tuple[Document, tuple]] = []
            index = {item["name"]: i for i, item in enumerate(p)}
            for i, item in enumerate(p):
                items.append(item)
                origin.append((self.parent, p_path + (i,)))
            for j, item in enumerate(c):
                name = item["name"]
                if name in index:
                    items[index[name]] = item
                    origin[index[name]] = (self.child, c_path + (j,))
                else:
                    index[name] = len(items)
                    items.append(item)
                    origin.append((self.child, c_path + (j,)))
            kept = []
            for item, (src, src_path) in zip(items, origin):
                if item.get("remove") is True:
                    continue
                self.copy_marks(src, src_path, out_path + (len(kept),))
                kept.append(item)
            self.copy_one(self.child, c_path, out_path)
            return kept
        self.copy_marks(self.child, c_path, out_path)
        return c


def merge_documents(parent: Document, child: Document) -> Document:
    merger = _Merger(parent, child)
    merger.out.values[()] = Mark(1, 1, None, child.file)
    merger.out.data = merger.merge(parent.data, child.data, (), (), ())
    return merger.out
