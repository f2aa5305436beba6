"""Plain coercion for plain parameters, so that a command that needs no pydantic loads none.

Typer 0.29 coerces every parameter value through a pydantic TypeAdapter built on first
use. For `str`, `int`, `bool` and `list[str]` that buys nothing here and costs pydantic's
import (`variants` and `--help` would otherwise load it) and a schema build per parameter
on every one-shot command. Other kinds of parameter keep Typer's own coercion.

This reaches into Typer's private parameter class (typer is pinned below 0.30); if it is
not there, nothing is changed and Typer coerces as usual. The test of which modules
`variants` loads notices that case.
"""

from __future__ import annotations

from typing import Any

from typer._click.exceptions import BadParameter

try:
    from typer._coercion import RuntimeParam
    from typer.core import _TyperParameter
except ImportError:  # another Typer: keep its coercion
    RuntimeParam = _TyperParameter = None  # type: ignore[assignment,misc]

PLAIN: tuple[Any, ...] = (str, int, bool, list[str])
TRUE = ("1", "true", "yes", "on", "y", "t")
FALSE = ("0", "false", "no", "off", "n", "f")


def _plain_value(annotation: Any, value: Any, param: Any, ctx: Any) -> Any:
    if annotation is int:
        if isinstance(value, int):
            return value
        from napledger.errors import NapError
        from napledger.numbers import whole

        try:
            return whole(str(value), "it")
        except NapError as error:  # the one rule for numbers typed (napledger/numbers.py)
            raise BadParameter(str(error).removeprefix("it "), ctx=ctx, param=param) from None
    if annotation is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().casefold()
        if text in TRUE or text in FALSE:
            return text in TRUE
        raise BadParameter(f"{value!r} is not yes or no", ctx=ctx, param=param)
    if annotation is str:
        return value if isinstance(value, str) else str(value)
    return [str(item) for item in value]


def _is_plain(descriptor: Any) -> bool:
    return (
        descriptor.annotation in PLAIN
        and descriptor.file_annotation is None
        and descriptor.parameter_info.parser is None
        and not descriptor.is_ranged
    )


def install() -> None:
    """From now on, plain parameters of every Typer command are coerced without pydantic."""
    if RuntimeParam is None or getattr(_TyperParameter, "_napledger_plain", False):
        return

    class PlainParam(RuntimeParam):
        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            return _plain_value(self.annotation, value, param, ctx)

    typer_own = _TyperParameter.get_runtime_param

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None and _is_plain(self.type_descriptor):
            d = self.type_descriptor
            self._runtime_param = PlainParam(
                parameter_info=d.parameter_info, annotation=d.annotation
            )
        return typer_own(self)

    _TyperParameter.get_runtime_param = get_runtime_param  # type: ignore[method-assign]
    _TyperParameter._napledger_plain = True  # type: ignore[attr-defined]
