"""Which calls of other libraries consume a key they are given: `jax.random` samplers and
`split`, `equinox.nn` layers built or called with `key=`, JAX's and Flax's initializers, and the rows of
`key_consumers.py` (Flax, Haiku, distrax, NumPy seeded from a key, ...)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, cast

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.enclosing_self import self_owner
from optlint.analysis.imports import dotted_name
from optlint.analysis.index import CallSite
from optlint.analysis.key_model_objects import CALLED_ONCE, DRAWN_FIELDS, FIELD_REPLACERS
from optlint.analysis.key_consumers import (
    ONE_KEY_NAME,
    FUNCTION_CONSUMERS,
    INITIALIZER_MODULES,
    KEY_API_FILES,
    KEY_API_MODULES,
    KEY_WRAPPERS,
    METHOD_CONSUMERS,
    NON_DRAWING_INITIALIZERS,
    NO_DRAW_SWITCHES,
    SHAPE_ONLY_CALLS,
    SHAPE_ONLY_NAMES,
    KeyConsumer,
)
from optlint.analysis.key_pipeline_rows import unpacked_item
from optlint.analysis.key_imported_bases import file_bases, imported_bases
from optlint.analysis.key_imported_libraries import imported_project_libraries
from optlint.analysis.key_parameterless import DRAWS, NOTHING, module_draws
from optlint.analysis.key_parameterless import UNSEEN as PARAMETERLESS
from optlint.analysis.key_shape_arguments import ShapeArguments
from optlint.analysis.key_unnamed_streams import unnamed_stream
from optlint.analysis.key_switched_calls import switched_off
from optlint.analysis.key_syntax import keyword_dict
from optlint.analysis.key_name_reads import FRAME_READER_NAMES, FRAME_READERS
from optlint.analysis.key_constant_draws import draws_one_value
from optlint.analysis.prng_keys import SAMPLERS, Consumption, key_argument, key_name
from optlint.analysis.key_shape_only import shape_only_key_calls
from optlint.analysis.key_stream_free_imports import StreamFree
from optlint.analysis.values import ModuleValue
from optlint.analysis.walk import NAME_OR_ATTRIBUTE

if TYPE_CHECKING:
    from optlint.context import RuleContext

# The method a row names for an object called itself.
CALLED = "__call__"
# equinox.nn layers whose `__call__` draws from its `key` (the others ignore it).
RANDOM_LAYERS = frozenset({"Dropout", "MultiheadAttention"})
# The libraries whose objects, called, draw from a key they are given (`predictive(key, x)`):
# what made an object is named through the file's imports (`_made_by`), so a file importing
# none of them calls no such object, and what made the callee of each of its calls is not asked.
_CALLED_LIBRARIES = frozenset(made.split(".", 1)[0] for row in METHOD_CONSUMERS.get(CALLED, ())
                              for made in row.made_by)


class LibraryKeyCalls:
    """The keys a library call consumes, for the calls of one file (`sites` by call id);
    `callee` names a call for messages."""

    def __init__(self, ctx: RuleContext, sites: dict[int, CallSite],
                 callee: Callable[[cst.Call], str]) -> None:
        self.ctx = ctx
        self.sites = sites
        self.callee = callee
        self._shims: dict[str, str] | None = None  # `hk.transform` -> what the file set it to
        # Calls that keep what they draw in their object (`mcmc.run(key)`), by id.
        self.keeping: set[int] = set()
        self.shape_arguments = ShapeArguments(ctx, self._receiver_made_by)
        # What the project modules this file imports import (`key_imported_libraries.py`).
        self._project_libraries: frozenset[str] | None = None
        self._imported: dict[str, bool] = {}  # by library: the file imports it (`_imports`)
        # The library module this file is, by its public name (jax's own `random.py`), or "".
        filename = ctx.filename.replace("\\", "/")
        self._stream_free: StreamFree | None = None  # `_draws_no_stream`'s answers
        self._shape_only: set[int] | None = None  # keys given to `eval_shape` (`key_shape_only`)
        # By field name: what the file's classes set it to (`built_off`).
        self._field_values: dict[str, list[cst.BaseExpression | None]] | None = None
        self._fields_off: dict[str, bool] = {}  # by field name: each of those draws nothing
        self._own_module = next((public for file, public in KEY_API_FILES.items()
                                 if filename == file or filename.endswith("/" + file)), "")
        self._calls_library_objects = any(  # (see `_CALLED_LIBRARIES`)
            full.split(".", 1)[0] in _CALLED_LIBRARIES
            for full in ctx.index.imports.aliases.values())

    def consumptions(self, call: cst.Call) -> list[Consumption]:
        """What `call` consumes when it is a library's consumer (empty otherwise)."""
        ctx = self.ctx
        if self._shape_only is None:
            self._shape_only = shape_only_key_calls(ctx)
        if id(call) in self._shape_only:
            return []  # a key handed to `eval_shape`: shapes, no numbers
        qualified = ctx.qualify(call.func) or self._own_function(call)
        if qualified is not None:
            module, _, name = qualified.rpartition(".")
            if module in KEY_API_MODULES:
                qualified = f"{KEY_API_MODULES[module]}.{name}"
            if qualified.startswith("jax.random."):
                name = qualified.rsplit(".", 1)[1]
                kind = {"split": "split", "fold_in": "fold", "PRNGKey": "seed",
                        "key": "seed"}.get(name, "draw")
                key = key_argument(call, 0, "key" if kind != "seed" else "seed") if (
                    name in SAMPLERS or kind != "draw") else None
                if draws_one_value(name, call):
                    return []  # `randint(key, (), 0, 1)`: the same value for every key
                return [] if key is None else [Consumption(call, key, self.callee(call),
                                                           kind=kind)]
            if qualified.startswith("equinox.nn."):
                key = key_argument(call, None, "key")
                return [] if key is None else [Consumption(call, key, self.callee(call))]
            row = FUNCTION_CONSUMERS.get(qualified)
            return [] if row is None else self._library(call, row)
        func = call.func
        method = func if isinstance(func, cst.Attribute) else self._compiled_method(func, call)
        if method is not None and method.attr.value in METHOD_CONSUMERS:
            site = self.sites.get(id(call))
            made = self._made_by(method.value, site) if site is not None else set()
            rows = METHOD_CONSUMERS[method.attr.value]
            if made and not any(made & set(row.made_by) for row in rows):
                made |= imported_bases(self.ctx, made)  # a class of another project file
            for row in rows:
                if made & set(row.made_by) or ("*" in row.made_by and self._imports(row.library)):
                    if row.stream_only and site is not None and self._draws_no_stream(
                            method.value, site):
                        return []
                    if row.forwards_from is not None and site is not None and switched_off(
                            ctx, call, self._making_call(method.value, site),
                            row.forwards_from, row.keeps_keywords):
                        return []
                    uses = self._library(call, row)
                    if uses and row.draws_made_parameters and site is not None:
                        uses = self._parameterless(uses, method.value, site)
                    if uses:
                        return uses
        if self._calls_library_objects and isinstance(func, (cst.Name, cst.Call, cst.Attribute)):
            # An object called (`predictive(key, x)`, `Predictive(model)(key, x)`, a layer
            # its object holds: `self.dropout(x, rng=key)`).
            site = self.sites.get(id(call))
            made = self._made_by(func, site) if site is not None else set()
            for row in METHOD_CONSUMERS[CALLED]:
                if made & set(row.made_by):
                    return self._library(call, row)
        if isinstance(func, cst.Call):
            inner = ctx.qualify(func.func) or ""
            if inner.rsplit(".", 1)[-1] in RANDOM_LAYERS and inner.startswith("equinox.nn."):
                key = key_argument(call, None, "key")
                return [] if key is None else [Consumption(call, key, self.callee(call))]
            module, _, factory = inner.rpartition(".")
            if module in INITIALIZER_MODULES and factory not in NON_DRAWING_INITIALIZERS:
                # `truncated_normal(stddev)(key, shape)`: the initializer draws in place.
                key = key_argument(call, INITIALIZER_MODULES[module], "key")
                return [] if key is None else [Consumption(call, key, self.callee(call))]
        return []

    def _parameterless(self, uses: list[Consumption], receiver: cst.BaseExpression,
                       site: CallSite) -> list[Consumption]:
        """`uses`, none where the module `receiver` names draws nothing, `--preview` only where
        what it draws is not seen (`key_parameterless.py`)."""
        making = self._making_call(receiver, site)
        draws = module_draws(self.ctx, making) if making is not None else DRAWS
        if draws == NOTHING:
            return []
        if draws == DRAWS:
            return uses
        return [replace(use, unseen=use.unseen or PARAMETERLESS) for use in uses]

    def _compiled_method(self, func: cst.BaseExpression, call: cst.Call
                         ) -> cst.Attribute | None:
        """The method a call runs through a transformation that passes its arguments on
        unchanged, once per call: `jax.jit(sampler.step)(key, state)`, or `step(key, state)`
        after `step = jax.jit(sampler.step)`."""
        if isinstance(func, cst.Name):
            site = self.sites.get(id(call))
            binding = self.ctx.binding(func.value, site) if site is not None else None
            func = (binding.value if binding is not None and binding.path == ()
                    and isinstance(binding.value, cst.Call) else func)
        if (isinstance(func, cst.Call) and func.args and func.args[0].keyword is None
                and isinstance(func.args[0].value, cst.Attribute)
                and self.ctx.qualify(func.func) in CALLED_ONCE):
            return func.args[0].value
        return None

    def _own_function(self, call: cst.Call) -> str | None:
        """In a library's own module, a call of one of its module-level functions, by the name
        the library gives it (`normal(key_n, ...)` in jax's `random.py`: `jax.random.normal`)."""
        if not self._own_module or not isinstance(call.func, cst.Name):
            return None
        site = self.sites.get(id(call))
        binding = self.ctx.binding(call.func.value, site) if site is not None else None
        info = (self.ctx.index.functions.get(binding.node)
                if binding is not None and binding.node is not None else None)
        if info is None or info.scope.parent is not self.ctx.index.module_scope:
            return None
        return f"{self._own_module}.{call.func.value}"

    def reads_only_shapes(self, call: cst.Call) -> bool:
        """`call` reads only the shapes of the arrays it is given (`chex.assert_shape`)."""
        return last_name(call.func) in SHAPE_ONLY_NAMES and self.ctx.qualify(
            call.func) in SHAPE_ONLY_CALLS

    def shape_only_arguments(self, call: cst.Call) -> frozenset[int]:
        """The ids of the arguments `call` reads only for shape and dtype (`zeros_like(x)`)."""
        return self.shape_arguments.shape_only(call)

    def _receiver_made_by(self, call: cst.Call) -> set[str]:
        """What made the object `call`'s method is called on (`_made_by`)."""
        site = self.sites.get(id(call))
        if site is None or not isinstance(call.func, cst.Attribute):
            return set()
        return self._made_by(call.func.value, site)

    def drawn_key(self, call: cst.Call) -> cst.BaseExpression | None:
        """The key a `jax.random` sampler draws from (None: `call` is none): the shape of
        what it draws is the same for every key."""
        name = last_name(call.func)
        if name not in SAMPLERS or name == "split":
            return None
        qualified = self.ctx.qualify(call.func) or ""
        return key_argument(call, 0, "key") if qualified == f"jax.random.{name}" else None

    def drawn_fields(self, call: cst.Call) -> frozenset[str]:
        """The fields the layer `call` builds draws from its key (empty: not known)."""
        rows = DRAWN_FIELDS.get(self.ctx.qualify(call.func) or "", ())
        return frozenset(field for field, switch in rows if switch is None or not any(
            arg.keyword is not None and arg.keyword.value == switch
            and isinstance(arg.value, cst.Name) and arg.value.value == "False"
            for arg in call.args))

    def replaces_fields(self, call: cst.Call) -> bool:
        """`call` copies a pytree with some fields replaced (`eqx.tree_at(where, tree, v)`)."""
        return last_name(call.func) == "tree_at" and self.ctx.qualify(
            call.func) in FIELD_REPLACERS

    def _library(self, call: cst.Call, row: KeyConsumer) -> list[Consumption]:
        """The keys `call` gives where `row` says its library draws from them."""
        if any(argument(call, None, keyword) is not None for keyword in row.replaced_by):
            return []  # `pipeline(ids, params, key, latents=z)`: nothing drawn from the key
        if row.keeps_result:
            self.keeping.add(id(call))
        given: list[cst.BaseExpression] = []
        # The key given by its name first: then the argument at the row's position is another
        # parameter of a callee that is not the row's (`plan.sample(pipeline, key=key)`).
        keyword = row.keyword
        arg = argument(call, None, keyword) if keyword else None
        mapped = (self._mapped(call, keyword)
                  if arg is None and keyword and not row.in_dict else None)
        if mapped is not None and keyword:
            mapping, value = mapped
            return [Consumption(call, value, self.callee(call), given_as=(mapping, keyword))]
        if arg is None:
            arg = argument(call, row.position, row.keyword or "")
        if arg is not None:
            given.append(arg.value)
        if row.all_keywords:
            given += [a.value for a in call.args if a.keyword is not None and a is not arg]
        keys = []
        for expr in given:
            if row.in_dict and isinstance(expr, cst.Dict):
                keys += [element.value for element in expr.elements
                         if isinstance(element, cst.DictElement)
                         and not unnamed_stream(self.ctx, row.library, element)]
            elif row.in_dict and isinstance(expr, cst.Call) and keyword_dict(expr):
                keys += [arg.value for arg in expr.args]  # `rngs=dict(dropout=key)`
            else:
                keys.append(self._unwrapped(self._wrapped_by_name(expr, call)))
        how = self.callee(call)
        # A key held by a name or an attribute (`self.rng`), as the flow follows them, or made
        # in place (`rvs(random_state=PRNGKey(0))`: the flow names it by its seed).
        return [Consumption(call, key, how, derives=row.derives, generator=row.generator)
                for key in keys
                if (key_name(key) is not None and not (
                    row.one_key_only and not ONE_KEY_NAME.search(key_name(key) or "")))
                or isinstance(key, cst.Call)] + [
            Consumption(call, key, how, followed=f"int:{key.value}") for key in keys
            if row.int_seeds and isinstance(key, cst.Integer)]  # `seed(model, rng_seed=0)`

    def _mapped(self, call: cst.Call, keyword: str | None
                ) -> tuple[str, cst.BaseExpression] | None:
        """`f(x, **common)` with `common = {"key": ..., ...}` bound once before: the name of
        the mapping and the value it gives as `keyword`."""
        site = self.sites.get(id(call))
        for arg in call.args:
            if arg.star != "**" or not isinstance(arg.value, cst.Name) or site is None:
                continue
            binding = self.ctx.binding(arg.value.value, site)
            if binding is None or binding.path or not isinstance(binding.value, cst.Dict):
                continue
            for element in binding.value.elements:
                if (isinstance(element, cst.DictElement)
                        and isinstance(element.key, cst.SimpleString)
                        and element.key.evaluated_value == keyword):
                    return arg.value.value, element.value
        return None

    def _wrapped_by_name(self, expr: cst.BaseExpression, call: cst.Call) -> cst.BaseExpression:
        """`seed = np.asarray(jax.random.key_data(key))` then `default_rng(seed)`: the converting
        call the name is bound to, once in its scope (else `expr` itself)."""
        site = self.sites.get(id(call))
        if not isinstance(expr, cst.Name) or site is None:
            return expr
        binding = self.ctx.binding(expr.value, site)
        if (binding is None or binding.kind != "assign" or binding.path or binding.scope is None
                or len(binding.scope.bindings.get(expr.value, [])) != 1
                or not isinstance(binding.value, cst.Call)):
            return expr
        unwrapped = self._unwrapped(binding.value)
        return binding.value if unwrapped is not binding.value else expr

    def _unwrapped(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """The key inside calls that only convert it (`np.asarray(jax.random.key_data(key))`)."""
        while (isinstance(expr, cst.Call) and len(expr.args) >= 1
               and (self.ctx.qualify(expr.func) or last_name(expr.func) or "") in KEY_WRAPPERS):
            expr = expr.args[0].value
        return expr

    def _imports(self, library: str) -> bool:
        known = self._imported.get(library)  # asked of most calls of the file
        if known is None:
            known = self._imported[library] = self._imports_uncached(library)
        return known

    def _imports_uncached(self, library: str) -> bool:
        if any(full == library or full.startswith(library + ".")
               for full in self.ctx.index.imports.aliases.values()):
            return True
        if self._project_libraries is None:
            self._project_libraries = imported_project_libraries(self.ctx)
        return library in self._project_libraries

    def _made_by(self, receiver: cst.BaseExpression, site: CallSite) -> set[str]:
        """What made the object a method is called on: the qualified name of the call, of its
        decorators, and of the bases of the class it instantiates (from this file)."""
        made: set[str] = set()
        if isinstance(receiver, cst.Name):
            binding = self.ctx.binding(receiver.value, site)
            if binding is None:
                return made
            if isinstance(binding.node, (cst.FunctionDef, cst.ClassDef)):
                made |= {self.ctx.qualify(d.decorator if not isinstance(d.decorator, cst.Call)
                                          else d.decorator.func) or ""
                         for d in binding.node.decorators}
            annotation = getattr(binding.node, "annotation", None)
            if isinstance(annotation, cst.Annotation) and isinstance(annotation.annotation,
                                                                     cst.Name):
                # `model: MLP`: an instance of that class.
                return made | self.bases(annotation.annotation.value, set())
            if isinstance(annotation, cst.Annotation) and isinstance(annotation.annotation,
                                                                     cst.Attribute):
                # `encoder_module: nn.Module`: an instance of that library class (and of what
                # made it, where it is assigned).
                made.add(self.ctx.qualify(annotation.annotation) or "")
                made.discard("")
            if binding.path == () and isinstance(binding.value, cst.Call):
                receiver = binding.value
            elif isinstance(binding.value, cst.Call) and binding.path:
                # `pipe, params = Pipeline.from_pretrained(...)`: an item of what the call
                # returns, named by its place (`...from_pretrained[0]`).
                made.add(unpacked_item(self.ctx.qualify(binding.value.func), binding.path))
                made.discard("")
                return made
        elif isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name):
            owner = self_owner(site.scope, receiver.value.value)
            bindings = owner.attributes.get(receiver.attr.value, []) if owner else []
            values = [b.value for b in bindings if isinstance(b.value, cst.Call) and not b.path]
            if len(values) != 1:
                return made
            receiver = values[0]
        if isinstance(receiver, cst.Call):
            made.add(self.ctx.qualify(receiver.func) or self._module_attribute(receiver.func))
            for inner in receiver.args[:1]:  # `hk.without_apply_rng(hk.transform(f))`
                if isinstance(inner.value, cst.Call):
                    made.add("wrapped:" + (self.ctx.qualify(inner.value.func) or ""))
            if isinstance(receiver.func, cst.Name):
                made |= self.bases(receiver.func.value, set())
        made.discard("")
        return made

    def _draws_no_stream(self, receiver: cst.BaseExpression, site: CallSite) -> bool:
        """`receiver` was made by transforming a function of this file (`hk.transform(lambda
        x: Net()(x))`), and nothing in the file draws from the rng stream, nor does the file
        import code of its project that might: its `apply` draws nothing."""
        made = self._making_call(receiver, site)
        given: cst.CSTNode | None = made.args[0].value if made is not None and made.args else None
        if made is None and isinstance(receiver, cst.Name):
            given = receiver  # `@hk.transform` on a `def` of the file: that function
        if isinstance(given, cst.Name):
            binding = self.ctx.binding(given.value, site)
            given = binding.node if binding is not None else None
        if not isinstance(given, (cst.Lambda, cst.FunctionDef)):
            return False
        if self._stream_free is None:
            self._stream_free = StreamFree(self.ctx)
        return self._stream_free.draws_nothing(given)

    def _making_call(self, receiver: cst.BaseExpression, site: CallSite) -> cst.Call | None:
        """The call that made the object `receiver` names (`f = hk.transform(g)`, or
        `self.f = ...` once in its class)."""
        if isinstance(receiver, cst.Name):
            binding = self.ctx.binding(receiver.value, site)
            value = binding.value if binding is not None and not binding.path else None
            return value if isinstance(value, cst.Call) else None
        if isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name):
            owner = self_owner(site.scope, receiver.value.value)
            values = [b.value for b in (owner.attributes.get(receiver.attr.value, [])
                                        if owner else []) if not b.path]
            return values[0] if len(values) == 1 and isinstance(values[0], cst.Call) else None
        return receiver if isinstance(receiver, cst.Call) else None

    def _module_attribute(self, func: cst.BaseExpression) -> str:
        """The qualified name of `hk.transform` where the file builds its own module object
        and sets its attributes at module level (`hk = types.ModuleType("haiku")`, then
        `hk.transform = transform.transform`, as Haiku's own sources do); "" otherwise."""
        if self._shims is None:
            self._shims = {}
            for statement in self.ctx.module.body:
                if not isinstance(statement, cst.SimpleStatementLine):
                    continue
                for small in statement.body:
                    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
                        continue
                    target = small.targets[0].target
                    qualified = self.ctx.qualify(small.value)
                    dotted = dotted_name(target)
                    if isinstance(target, cst.Attribute) and dotted and qualified:
                        self._shims[dotted] = qualified
        dotted = dotted_name(func)
        return self._shims.get(dotted, "") if dotted else ""

    def bases(self, class_name: str, seen: set[str]) -> set[str]:
        """The qualified names of a class's bases, and theirs (classes of the file)."""
        return file_bases(self.ctx, class_name, seen)

    def built_off(self, value: ModuleValue, call: cst.Call) -> bool:
        """A layer built to draw nothing (`eqx.nn.Dropout(0.1, inference=True)`), seen where it
        was made, or for `x.field(...)`, where every class of the file sets that field."""
        if value.made_by is not None:
            return draws_nothing(value.made_by)
        if not isinstance(call.func, cst.Attribute):
            return False
        if self._field_values is None:  # (a pass over every class per call was quadratic)
            self._field_values = {}
            for info in self.ctx.index.classes.values():
                for field, bindings in info.attributes.items():
                    self._field_values.setdefault(field, []).extend(
                        binding.value for binding in bindings)
        field = call.func.attr.value
        off = self._fields_off.get(field)
        if off is None:
            made = self._field_values.get(field, [])
            off = self._fields_off[field] = bool(made) and all(
                isinstance(value, cst.Call) and draws_nothing(value) for value in made)
        return off



def frame_readers(ctx: RuleContext) -> frozenset[str]:
    """The names by which the file calls what may read any name of a frame (`locals()`,
    `breakpoint()`, `pdb` of `pdb.set_trace()`): the calls named as `FRAME_READERS` are."""
    found: set[str] = set()
    for site in ctx.calls():
        func = site.node.func
        if last_name(func) not in FRAME_READER_NAMES:
            continue
        if (ctx.qualify(func) or (func.value if isinstance(func, cst.Name) else "")) not in (
                FRAME_READERS):
            continue
        while isinstance(func, cst.Attribute):
            func = func.value
        if isinstance(func, cst.Name):
            found.add(func.value)
    return frozenset(found)


def draws_nothing(call: cst.Call) -> bool:
    """A call switched to draw nothing (`inference=True`, `deterministic=True`, `train=False`)."""
    for arg in call.args:
        if arg.keyword is None or arg.keyword.value not in NO_DRAW_SWITCHES:
            continue
        if isinstance(arg.value, cst.Name) and arg.value.value in ("True", "False"):
            return (arg.value.value == "True") is NO_DRAW_SWITCHES[arg.keyword.value]
    return False


def last_name(func: cst.BaseExpression) -> str | None:
    """The name a call is made by: `f` for `f(...)`, `method` for `obj.method(...)`."""
    kind = NAME_OR_ATTRIBUTE(func)
    if kind == "name":
        return cast(cst.Name, func).value
    if kind == "attribute":
        return cast(cst.Attribute, func).attr.value
    return None
