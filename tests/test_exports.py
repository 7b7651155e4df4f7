"""What a module exports to an ``automodule`` with ``:members:``
(``rules.exports``): its ``__all__``, or, where ``__all__`` is built from
its globals (detectron2's ``[k for k in globals().keys() if not
k.startswith("_")]``), every public name it defines or imports, through
its star imports."""

from __future__ import annotations

from helpers import by_key, check_project

_IMPL = '''
__all__ = ["RandomExtent", "Resize"]


class RandomExtent:
    """Crops a random subrect."""

    def __init__(self, scale_range, shift_range):
        """
        Args:
            output_size (h, w): Dimensions of the output image.
            scale_range (l, h): Range of input-to-output size scaling factor.
            shift_range (x, y): Range of shifts of the cropped subrect.
        """
        self.scale_range = scale_range
        self.shift_range = shift_range


class Resize:
    """Resize."""

    def __init__(self, shape, interp=2):
        """
        Args:
            shape (int): the shape.
            interp: the interpolation.
        """
        self.shape = shape
        self.interp = interp


class Unlisted:
    """Not in the module's ``__all__``.

    Args:
        size: the size.
        colour: the colour.
        depth: the depth.
    """

    def __init__(self, size, depth):
        self.size = size
        self.depth = depth
'''

_PAGE = "pkg.transforms\n==============\n\n.. automodule:: pkg.transforms\n    :members:\n"

_BUILT = '__all__ = [k for k in globals().keys() if not k.startswith("_")]\n'


def _check(tmp_path, init: str):
    files = {
        "pkg/transforms/__init__.py": init,
        "pkg/transforms/impl.py": _IMPL,
        "docs/transforms.rst": _PAGE,
    }
    return by_key(check_project(tmp_path, files, "pkg")[1])


def test_an_all_built_from_globals_exports_the_public_names_star_imported(tmp_path) -> None:
    found = _check(tmp_path, "from .impl import *\n\n" + _BUILT)
    assert found[("CD101", "RandomExtent(output_size=)")].severity == "error"
    # The star import takes what the imported module's ``__all__`` lists.
    assert ("CD101", "Unlisted(colour=)") not in found


def test_an_all_built_otherwise_exports_nothing_known(tmp_path) -> None:
    found = _check(tmp_path, "from .impl import *\n\n__all__ = sorted(NAMES)\n")
    assert ("CD101", "RandomExtent(output_size=)") not in found


def test_a_public_name_imported_by_name_is_exported_a_private_one_not(tmp_path) -> None:
    found = _check(tmp_path, "from .impl import Unlisted as _Unlisted\n\n" + _BUILT)
    assert ("CD101", "Unlisted(colour=)") not in found
    found = _check(tmp_path, "from .impl import Unlisted\n\n" + _BUILT)
    assert ("CD101", "Unlisted(colour=)") in found
