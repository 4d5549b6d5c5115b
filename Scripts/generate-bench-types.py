#!/usr/bin/env python3
"""Writes frost-bench's generated application: 1,000 distinct types and their registrations.

    python3 Scripts/generate-bench-types.py

(run from anywhere; it writes into Benchmarks/Sources/frost-bench/Generated/). The output is
committed, and the script is deterministic (a fixed seed, no dependence on the environment):
running it again rewrites the same files.

The types are shaped like an application's: final classes and structs; singletons registered
by closure (some under a protocol, `any BillingClient0042`), their dependencies resolved in
the closure; transients autowired from initializers of 1-3 parameters; a few `.graph` and
`.weak` registrations, and a few registered only under a name. Every dependency points to an
earlier type, so every prefix of the list is a closed graph that freezes.

The registration functions are straight-line code, in chunks of at most 100 registrations
(one function each, so that no function is huge to compile), with a checkpoint after the
10th, 100th, 200th and 500th registration: `registerGeneratedTypes(count, in:)` registers
exactly the first `count` types and adds no per-registration dispatch to the measured work.
"""

import os
import random
import textwrap

SEED = 15  # Frost's issue 15: prepare-N with distinct types.
COUNT = 1000
CHECKPOINTS = [10, 100, 200, 500]  # and COUNT, the end
CHUNK = 100
COMMAND = "python3 Scripts/generate-bench-types.py"
OUTPUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    "..", "Benchmarks", "Sources", "frost-bench", "Generated",
)
LINE_LENGTH = 100

DOMAINS = [
    "Account", "Billing", "Catalog", "Checkout", "Customer", "Delivery", "Discount",
    "Inventory", "Invoice", "Ledger", "Loyalty", "Message", "Notification", "Order",
    "Payment", "Pricing", "Profile", "Promotion", "Refund", "Report", "Review", "Search",
    "Session", "Shipment", "Subscription", "Tax", "Tenant", "Ticket", "Upload", "Warehouse",
]
ROLES = [
    "Auditor", "Cache", "Client", "Coordinator", "Exporter", "Formatter", "Gateway",
    "Handler", "Importer", "Mapper", "Policy", "Publisher", "Repository", "Scheduler",
    "Service", "Store", "Tracker", "Validator",
]
NAMES = ["primary", "replica", "audit", "fallback", "internal", "legacy"]
LABELS = ["a", "b", "c"]

# Kinds, with their share of the 1,000 types.
SINGLETON = "singleton"  # registered by closure, .scope(.singleton)
PROTOCOL = "protocol"  # a singleton registered under a protocol it implements
TRANSIENT = "transient"  # autowired
GRAPH = "graph"  # autowired, .scope(.graph)
WEAK = "weak"  # autowired, .scope(.weak); classes only
NAMED = "named"  # registered by closure under a name only; nothing depends on it
KINDS = [(SINGLETON, 18), (PROTOCOL, 6), (TRANSIENT, 60), (GRAPH, 6), (WEAK, 5), (NAMED, 5)]
CACHED = {SINGLETON, PROTOCOL, WEAK, GRAPH}
SWINJECT_SCOPE = {
    SINGLETON: ".container", PROTOCOL: ".container", TRANSIENT: ".transient",
    GRAPH: ".graph", WEAK: ".weak", NAMED: ".transient",
}


class Generated:
    """One generated type: what it is, how it is registered, what it depends on."""

    def __init__(self, index, kind, is_class, dependencies, rng):
        self.index = index
        self.kind = kind
        self.is_class = is_class
        self.dependencies = dependencies
        base = f"{rng.choice(DOMAINS)}{rng.choice(ROLES)}{index:04d}"
        # A protocol registration: the protocol is the application's name for the service,
        # the class its live implementation.
        self.protocol = base if kind == PROTOCOL else None
        self.name = "Live" + base if kind == PROTOCOL else base
        self.registration_name = rng.choice(NAMES) if kind == NAMED else None

    @property
    def key(self):
        """The type a dependent names: the protocol's existential, or the type itself."""
        return f"any {self.protocol}" if self.protocol else self.name

    @property
    def metatype(self):
        return f"(any {self.protocol}).self" if self.protocol else f"{self.name}.self"


def choose_kind(rng, index, types):
    if index <= 3:
        return SINGLETON  # the roots: nothing to depend on yet
    total = sum(weight for _, weight in KINDS)
    pick = rng.randrange(total)
    for kind, weight in KINDS:
        if pick < weight:
            return kind
        pick -= weight
    raise AssertionError("unreachable")


def choose_dependencies(rng, kind, types):
    """Earlier, unnamed registrations a new type depends on.

    A singleton depends on singletons only, a weak registration on singletons and weak ones
    (nothing keeps a shorter-lived instance). Transients depend mostly on cached registrations,
    as an application's services do, so that resolving one makes a small graph.
    """
    singletons = [t for t in types if t.kind in (SINGLETON, PROTOCOL)]
    cached = [t for t in types if t.kind in CACHED]
    made = [t for t in types if t.kind == TRANSIENT]
    if kind in (SINGLETON, PROTOCOL):
        count = min(len(singletons), rng.choice([0, 0, 1, 1, 2]))
        return rng.sample(singletons, count)
    if kind == WEAK:
        pool = [t for t in types if t.kind in (SINGLETON, PROTOCOL, WEAK)]
        return rng.sample(pool, min(len(pool), rng.choice([1, 1, 2, 3])))
    count = rng.choice([1, 1, 1, 2, 2, 2, 3, 3]) if kind != NAMED else rng.choice([1, 2])
    chosen = []
    while len(chosen) < count:
        pool = made if made and rng.random() < 0.25 else cached
        candidate = rng.choice(pool)
        if candidate not in chosen:
            chosen.append(candidate)
    return chosen


def generate_types():
    rng = random.Random(SEED)
    types = []
    for index in range(1, COUNT + 1):
        kind = choose_kind(rng, index, types)
        is_class = kind in (PROTOCOL, WEAK) or rng.random() < 0.65
        dependencies = choose_dependencies(rng, kind, types)
        types.append(Generated(index, kind, is_class, dependencies, rng))
    return types


# Swift output, laid out as swift-format lays it out (.swift-format: 100 columns, 4 spaces).


def call(indent, head, arguments, tail):
    """`head(arg, arg)tail` on one line if it fits, else one argument per line."""
    one_line = f"{indent}{head}({', '.join(arguments)}){tail}"
    if len(one_line) <= LINE_LENGTH or not arguments:
        return [one_line]
    lines = [f"{indent}{head}("]
    for position, argument in enumerate(arguments):
        comma = "," if position < len(arguments) - 1 else ""
        lines.append(f"{indent}    {argument}{comma}")
    lines.append(f"{indent}){tail}")
    return lines


def type_declaration(t):
    lines = []
    if t.protocol:
        lines.append(f"protocol {t.protocol}: AnyObject, Sendable {{}}")
        lines.append("")
    keyword = "final class" if t.is_class else "struct"
    conformance = t.protocol if t.protocol else "Sendable"
    if not t.dependencies:
        lines.append(f"{keyword} {t.name}: {conformance} {{}}")
        return lines
    lines.append(f"{keyword} {t.name}: {conformance} {{")
    for label, dependency in zip(LABELS, t.dependencies):
        lines.append(f"    let {label}: {dependency.key}")
    parameters = [f"{label}: consuming {d.key}" for label, d in zip(LABELS, t.dependencies)]
    lines.extend(call("    ", "init", parameters, " {"))
    for label in LABELS[: len(t.dependencies)]:
        lines.append(f"        self.{label} = {label}")
    lines.append("    }")
    lines.append("}")
    return lines


def initializer_reference(t):
    labels = "".join(f"{label}:" for label in LABELS[: len(t.dependencies)])
    return f"{t.name}.init({labels})"


def closure_registration(t, indent, receiver, head_arguments, resolve, scope):
    """`receiver.register(T.self) { r in T(a: resolve(A)) }scope`, in swift-format's layout."""
    arguments = [f"{label}: {resolve(d)}" for label, d in zip(LABELS, t.dependencies)]
    parameter = "r" if t.dependencies else "_"
    opening = f"{receiver}.register({', '.join(head_arguments)}) {{ {parameter} in"
    made = f"{t.name}({', '.join(arguments)})"
    one_line = f"{indent}{opening} {made} }}{scope}"
    if len(one_line) <= LINE_LENGTH:
        return [one_line]
    lines = [f"{indent}{opening}"]
    lines.extend(call(indent + "    ", t.name, arguments, ""))
    lines.append(f"{indent}}}{scope}")
    return lines


def frost_registration(t):
    indent = "    "
    if t.kind in (SINGLETON, PROTOCOL, NAMED):
        head = [t.metatype]
        if t.registration_name:
            head.append(f'name: "{t.registration_name}"')
        scope = ".scope(.singleton)" if t.kind != NAMED else ""
        return closure_registration(
            t, indent, "container", head, lambda d: f"try r.resolve({d.metatype})", scope)
    scope = {TRANSIENT: "", GRAPH: ".scope(.graph)", WEAK: ".scope(.weak)"}[t.kind]
    arguments = [t.metatype, initializer_reference(t)]
    return call(indent, "container.autowire", arguments, scope)


def swinject_registration(t):
    head = [t.metatype]
    if t.registration_name:
        head.append(f'name: "{t.registration_name}"')
    scope = f".inObjectScope({SWINJECT_SCOPE[t.kind]})"
    lines = closure_registration(
        t, "    ", "container", head, lambda d: f"r.resolve({d.metatype})!", "")
    # The scope on the closing line if it fits there, else on a line of its own.
    if len(lines[-1] + scope) <= LINE_LENGTH:
        lines[-1] += scope
    else:
        lines.append(f"        {scope}")
    return lines


def header(what):
    return [
        f"// Generated by Scripts/generate-bench-types.py: do not edit. To regenerate, run",
        f"// `{COMMAND}` (seed {SEED}).",
        "//",
    ] + [f"// {line}" if line else "//" for line in what] + [""]


def chunks():
    """(first, last) index of each registration function: none crosses a checkpoint."""
    bounds = sorted(set(CHECKPOINTS + list(range(CHUNK, COUNT + 1, CHUNK)) + [COUNT]))
    first = 1
    for last in bounds:
        yield first, last
        first = last + 1


def registration_file(types, module, container, imports, registration, what, extra_doc):
    lines = header(what)
    lines += [f"import {name}" for name in imports] + [""]
    checkpoints = ", ".join(f"{c:_}" for c in CHECKPOINTS + [COUNT])
    prose = ", ".join(f"{c:,}" for c in CHECKPOINTS + [COUNT])
    lines += [
        f"/// Registers the first `count` generated types ({prose}) in `container`,",
        "/// as straight-line code: a checkpoint between two chunks costs one comparison.",
    ]
    lines += [f"/// {line}" for line in extra_doc]
    lines += [
        f"func registerGeneratedTypes(_ count: Int, in container: {container}) {{",
        f"    precondition([{checkpoints}].contains(count), \"not a checkpoint: \\(count)\")",
    ]
    for first, last in chunks():
        lines.append(f"    register{module}{first:04d}To{last:04d}(in: container)")
        if last in CHECKPOINTS:
            lines.append(f"    guard count > {last:_} else {{ return }}")
    lines.append("}")
    for first, last in chunks():
        lines += [
            "",
            f"private func register{module}{first:04d}To{last:04d}(in container: {container}) {{",
        ]
        for t in types[first - 1 : last]:
            lines += registration(t)
        lines.append("}")
    return lines


def write(name, lines):
    path = os.path.join(OUTPUT, name)
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    print(f"wrote {os.path.relpath(path)}")


def main():
    types = generate_types()
    os.makedirs(OUTPUT, exist_ok=True)
    tally = {kind: sum(1 for t in types if t.kind == kind) for kind, _ in KINDS}
    structs = sum(1 for t in types if not t.is_class)
    summary = (
        f"{COUNT:,} distinct types shaped like an application's ({structs} of them structs, "
        + f"the rest final classes): {tally[SINGLETON]} singletons, {tally[PROTOCOL]} "
        + f"singletons under a protocol, {tally[TRANSIENT]} transients, {tally[GRAPH]} "
        + f"`.graph`, {tally[WEAK]} `.weak` and {tally[NAMED]} named registrations. Every "
        + "dependency points to an earlier type."
    )
    lines = header(textwrap.wrap(summary, LINE_LENGTH - 3))
    for t in types:
        lines += type_declaration(t) + [""]
    write("GeneratedTypes.swift", lines[:-1])
    write("GeneratedTypes+Frost.swift", registration_file(
        types, "Frost", "Frost.Container", ["Frost"], frost_registration,
        ["The generated types in a Frost container: singletons by closure (`.scope(.singleton)`),",
         "transients autowired, some `.graph` and `.weak`, a few named."],
        ["Every prefix is a closed graph: `freeze()` succeeds after any checkpoint."]))
    write("GeneratedTypes+Swinject.swift", registration_file(
        types, "Swinject", "Swinject.Container", ["Swinject"], swinject_registration,
        ["The generated types in a Swinject container, its idiom: `.container` scope for",
         "singletons, closures resolving dependencies with `r.resolve(X.self)!`, `.transient`",
         "(`.graph`, `.weak`) otherwise."],
        []))


if __name__ == "__main__":
    main()
