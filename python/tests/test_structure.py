"""The package's shape, checked as the app's src/build/structure.test.ts checks src/: no import cycle between
eorm's modules (an import inside a function counts: it is a cycle the code merely dodges), no module over 300
lines, no folder with more than 25 modules at one level. Reads the sources with `ast`, runs none of them."""
import ast
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(os.path.dirname(HERE), "eorm")
MAX_LINES = 300
MAX_FOLDER_FILES = 25


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def modules():
    """Every module of eorm: {dotted name: path}; a package by its __init__.py."""
    out = {}
    for folder, _, names in os.walk(PACKAGE):
        for n in names:
            if n.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, n), os.path.dirname(PACKAGE))[:-3].replace(os.sep, ".")
                out[rel[: -len(".__init__")] if rel.endswith(".__init__") else rel] = os.path.join(folder, n)
    return out


def imports_of(name, path, known):
    """The eorm modules `name` imports anywhere in its text (top level or inside a function)."""
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(read(path), path)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target not in known:
                continue
            # `from .pkg import mod` names the submodule; `from .mod import name`, the module.
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in known]
            found.update(subs if subs else [target])
            if len(subs) < len(node.names):
                found.add(target)
    found.discard(name)
    return found


class PackageShape(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.mods = modules()
        cls.graph = {m: imports_of(m, p, cls.mods) for m, p in cls.mods.items()}

    def test_no_import_cycles(self):
        cycles, state, stack = [], {}, []

        def visit(m):
            state[m] = "open"
            stack.append(m)
            for to in sorted(self.graph[m]):
                if state.get(to) == "open":
                    cycles.append(" → ".join(stack[stack.index(to):] + [to]))
                elif to not in state:
                    visit(to)
            stack.pop()
            state[m] = "done"

        for m in sorted(self.mods):
            if m not in state:
                visit(m)
        self.assertEqual(cycles, [])

    def test_no_module_over_the_line_cap(self):
        lines = {m: len(read(p).splitlines()) for m, p in self.mods.items()}
        long = {m: n for m, n in lines.items() if n > MAX_LINES}
        self.assertEqual(long, {})

    def test_no_folder_over_the_file_cap(self):
        counts = {}
        for p in self.mods.values():
            counts[os.path.dirname(p)] = counts.get(os.path.dirname(p), 0) + 1
        self.assertEqual({os.path.relpath(d, PACKAGE): n for d, n in counts.items() if n > MAX_FOLDER_FILES}, {})


if __name__ == "__main__":
    unittest.main()
