"""A class's docstring, where a page renders it (autodoc), against its
constructor: parameters it describes that the constructor does not take
(CD101), keywords of the class it leaves out (CD103), defaults it states
that differ from the field's (CD104); each with the cases that stay quiet."""

from __future__ import annotations

import pytest

from configdrift.extract.python.docstrings import doc_params
from configdrift.extract.python.facts import DocParam
from helpers import check_project


def test_google_hugging_face_numpy_and_sphinx_sections_are_read() -> None:
    google = (
        "Retries.\n\n    Parameters:\n      max_retries(int): How many.\n"
        "      min_backoff(int): The least backoff. Defaults to 15 seconds.\n"
        "      retry_when(Callable[[int, BaseException], bool]): A predicate.\n"
        "        Defaults to ``None``.\n\n    Some prose after the section.\n"
    )
    assert doc_params(google, 10) == [
        DocParam("max_retries", 13, "int"),
        # A quantity in words is no value.
        DocParam("min_backoff", 14, "int"),
        DocParam("retry_when", 15, "Callable[[int, BaseException], bool]", "None"),
    ]
    hugging_face = (
        "\n    Args:\n        > Parameters of the adapter\n\n"
        "        r (`int`, *optional*, defaults to `8`):\n            The rank.\n"
        "        use_dora (bool): Whether. Default is `False`.\n"
        "        dtype (str): The type. Defaults to `fp16` when on a GPU.\n"
        "        oft_block_size (`int`): The size. Default set to `oft_block_size = 32`.\n"
        "        optimizers (`tuple[Optimizer, Scheduler]`, *optional*, defaults to `(None, None)`):\n"
        "            The pair.\n"
        "        modules (`List[str]`):The modules, right after the colon.\n"
        "        **kwargs: Passed on.\n"
    )
    assert doc_params(hugging_face, 1) == [
        DocParam("r", 5, "int", "8"),
        DocParam("use_dora", 7, "bool", "False"),
        # A default in one case only is none.
        DocParam("dtype", 8, "str"),
        DocParam("oft_block_size", 9, "int", "32"),
        # A type that holds parentheses of its own.
        DocParam("optimizers", 10, "tuple[Optimizer, Scheduler]", "(None, None)"),
        DocParam("modules", 12, "List[str]"),
    ]
    numpy = (
        "Summary.\n\nParameters\n----------\nalpha : int, default 5\n    The alpha.\n"
        "beta : str\n    Beta.\n\nAttributes\n----------\ngamma : float\n    Gamma.\n\n"
        "Returns\n-------\nint\n    Something.\n"
    )
    assert doc_params(numpy, 1) == [
        DocParam("alpha", 5, "int", "5"),
        DocParam("beta", 7, "str"),
        DocParam("gamma", 12, "float", attribute=True),
    ]
    # Choices in braces in place of a type, and the entry after it.
    braced = (
        "Warm up.\n\n    Args:\n        kind {'log', 'linear'}: The shape. Default: log\n"
        "        last (int): The last step. Default: -1.\n"
    )
    assert doc_params(braced, 1) == [
        DocParam("kind", 4, None, None),
        DocParam("last", 5, "int", "-1"),
    ]
    sphinx = "Thing.\n\n:param alpha: the alpha, defaults to ``3``.\n:param int beta: beta\n"
    assert doc_params(sphinx, 1) == [DocParam("alpha", 3, None, "3"), DocParam("beta", 4)]
    # Prose that names words with colons, and a section of returns, are none.
    assert doc_params("Note: this is prose.\n\nReturns:\n    int: the count.\n", 1) == []


def test_a_section_header_indented_as_an_entry_ends_the_entries() -> None:
    # ``Examples:`` written at the entries' depth is no parameter, nor what
    # follows it; a line of an entry's text that says ``Example:`` is text.
    docstring = (
        "Metric.\n\n    Args:\n        device: where. Default, CPU.\n"
        "            Example:\n                ``cpu``.\n"
        "        skip (bool): whether.\n\n        Examples:\n\n        late (int): none.\n"
    )
    assert [p.name for p in doc_params(docstring, 1)] == ["device", "skip"]
    # A parameter named as a section is (``params``) is written in small letters.
    attributes = "Trial.\n\n    Attributes:\n        number:\n            N.\n        params:\n"
    assert [p.name for p in doc_params(attributes + "            P.\n", 1)] == ["number", "params"]


_DATACLASS = (
    "from dataclasses import dataclass, field\n\n\n"
    "@dataclass\nclass Base:\n    inherited: int = 0\n\n\n"
    "@dataclass\nclass AdapterConfig(Base):\n"
    '    """The adapter.\n\n'
    "    Args:\n"
    "        rank (`int`): The rank. Default is `8`.\n"
    "        alpha (`float`): The scale. Defaults to `1.0`.\n"
    "        dropout (`int`): The dropout.\n"
    "        target (`list`): The modules. Defaults to `None`.\n"
    "        use_bias (`bool`): Whether. Defaults to `True`.\n"
    "        gone (`int`): Removed long ago.\n\n"
    "    Attributes:\n"
    "        size (`int`): A property.\n"
    '    """\n\n'
    "    rank: int = 16\n"
    "    alpha: float = field(default=1.0, metadata={'help': 'x'})\n"
    "    dropout: float = 0.0\n"
    "    target: str = 'all'\n"
    "    use_bias: bool = False\n"
    "    seed: int = 0\n\n"
    "    def __post_init__(self):\n"
    "        self.use_bias = True\n\n"
    "    @property\n    def size(self):\n        return 1\n"
)


def test_a_rendered_dataclass_docstring_is_judged(tmp_path) -> None:
    files = {
        "pkg/config.py": _DATACLASS,
        "docs/reference.md": "# Reference\n\n[[autodoc]] config.AdapterConfig\n",
    }
    _, findings = check_project(tmp_path, files, "pkg")
    found = {
        (f.code, f.key, f.location.line)
        for f in findings
        if f.code in ("CD101", "CD103", "CD104", "CD105")
    }
    assert found == {
        # A parameter the dataclass does not take.
        ("CD101", "AdapterConfig(gone=)", 19),
        # A field of its own the docstring leaves out (five of six described);
        # the inherited field is the base class's to document.
        ("CD103", "AdapterConfig(seed=)", 30),
        # A default stated as a value that is not the field's; `target`'s
        # documented None is unset, `alpha`'s is the field() call's, and
        # `use_bias` is set after init.
        ("CD104", "AdapterConfig(rank=)", 14),
        # A type named as a word the annotation does not accept (an `int`
        # documented where a float is declared passes).
        ("CD105", "AdapterConfig(target=)", 17),
    }
    (gone,) = [f for f in findings if f.code == "CD101"]
    assert gone.location.path == "pkg/config.py"
    assert "docs/reference.md" in gone.message
    assert gone.related[0].path == "pkg/config.py"


def test_a_docstring_no_page_renders_or_of_a_class_not_certain_is_not_judged(tmp_path) -> None:
    files = {"pkg/config.py": _DATACLASS, "docs/reference.md": "# Reference\n\nText.\n"}
    _, findings = check_project(tmp_path, files, "pkg")
    assert not [f for f in findings if "docstring" in f.message]
    # Two classes of that name: which one the page renders is not certain.
    files = {
        "pkg/config.py": _DATACLASS,
        "pkg/other.py": "class AdapterConfig:\n    pass\n",
        "docs/reference.md": "# Reference\n\n[[autodoc]] config.AdapterConfig\n",
    }
    _, findings = check_project(tmp_path / "two", files, "pkg")
    assert not [f for f in findings if "docstring" in f.message]


@pytest.mark.parametrize(
    "page",
    [
        "Reference\n=========\n\n.. autoclass:: pkg.Retries\n\n.. autoclass:: pkg.Open\n",
        # A module rendered whole renders its public classes (on a page
        # read for what else it documents).
        "Reference\n=========\n\n.. automodule:: pkg.middleware\n   :members:\n\n"
        "Settings\n--------\n\n- ``alpha``: one.\n- ``beta``: two.\n- ``gamma``: three.\n",
    ],
)
def test_an_init_s_closed_signature_and_an_open_one(tmp_path, page) -> None:
    source = (
        'QUEUE = "app:queue"\n\n\n'
        "class Retries:\n"
        '    """Retry.\n\n'
        "    Parameters:\n"
        "      max_retries(int): How many. Defaults to ``10``.\n"
        "      min_backoff(int): The least. Defaults to ``100``.\n"
        "      max_backoff(int): The most.\n"
        "      queue(str): The queue. Defaults to ``QUEUE``.\n"
        "      ratio(float): The ratio (default: 1/3).\n"
        "      on_exhausted(str): An actor.\n\n"
        "    Attributes:\n"
        "      logger(Logger): The logger.\n"
        '    """\n\n'
        "    def __init__(\n"
        "        self, backend, *, max_retries=20, min_backoff=None, max_backoff=None,\n"
        '        queue=QUEUE, ratio=0.5, jitter=0, old_mode="deprecated", legacy=None,\n'
        "    ):\n"
        "        if legacy is not None:\n"
        '            warn("legacy is deprecated, use queue")\n'
        "        self.logger = None\n\n\n"
        "class Open:\n"
        '    """Open.\n\n'
        "    Parameters:\n"
        "      a(int): A.\n      b(int): B.\n      c(int): C.\n"
        '    """\n\n'
        "    def __init__(self, a=1, b=2, **options):\n"
        "        pass\n"
    )
    files = {
        "pkg/middleware.py": source,
        "docs/reference.rst": page,
    }
    _, findings = check_project(tmp_path, files, "pkg")
    # The attribute an Attributes section describes is no parameter; the
    # class that takes **options may take `c`. The defaults are its
    # __init__'s (None: computed; a default written as the code writes it,
    # `QUEUE`, is its own; "1/3" is no number).
    assert {(f.code, f.key) for f in findings if "docstring" in f.message} == {
        ("CD101", "Retries(on_exhausted=)"),
        ("CD104", "Retries(max_retries=)"),
        # The keywords of the __init__ it leaves out, required ones too; a
        # deprecated one (by its default, by its warning) on purpose.
        ("CD103", "Retries(jitter=)"),
        ("CD103", "Retries(backend=)"),
    }


def test_a_described_star_parameter_is_taken_by_position(tmp_path) -> None:
    """``handlers`` of ``__init__(self, *handlers, ...)`` is given by
    position: describing it by its name is no keyword the class refuses."""
    source = (
        "class Application:\n"
        '    """An application.\n\n'
        "    Args:\n"
        "        handlers (list): The handlers to call.\n"
        "        metadata (dict): User data.\n"
        "        name (str): The name.\n"
        "        colour (str): The colour.\n"
        '    """\n\n'
        "    def __init__(self, *handlers, metadata=None, name=None):\n"
        "        self.handlers = handlers\n"
    )
    page = "API\n===\n\n.. autoclass:: pkg.app.Application\n"
    _, findings = check_project(tmp_path, {"pkg/app.py": source, "docs/api.rst": page}, "pkg")
    assert {(f.code, f.key) for f in findings if f.code == "CD101"} == {
        ("CD101", "Application(colour=)")
    }


def test_a_lenient_model_a_short_docstring_and_one_that_describes_few(tmp_path) -> None:
    source = (
        "from dataclasses import dataclass\n\nfrom pydantic import BaseModel, Field\n\n\n"
        "class Lenient(BaseModel):\n"
        '    """Lenient.\n\n    Args:\n'
        "        host (str): The host.\n        port (int): The port. Defaults to `80`.\n"
        "        retries (int): Retries. Defaults to `4`.\n        extra_key (int): Not a field.\n"
        '    """\n\n'
        "    host: str = Field('localhost', description='h')\n"
        "    port: int = Field(8080, description='p')\n"
        "    retries: int = Field(default=3)\n\n\n"
        "@dataclass\nclass Short:\n"
        '    """Short.\n\n    Args:\n        a (int): A.\n        gone (int): Gone.\n    """\n\n'
        "    a: int = 1\n\n\n"
        "@dataclass\nclass Few:\n"
        '    """Few.\n\n    Args:\n        a (int): A.\n        b (int): B.\n        c (int): C.\n    """\n\n'
        "    a: int = 1\n    b: int = 2\n    c: int = 3\n    d: int = 4\n    e: int = 5\n    f: int = 6\n"
    )
    # Four of six, two thirds: the docstring is the reference.
    source += (
        "\n\n@dataclass\nclass Most:\n"
        '    """Most.\n\n    Args:\n        a (int): A.\n        b (int): B.\n'
        '        c (int): C.\n        d (int): D.\n    """\n\n'
        "    a: int = 1\n    b: int = 2\n    c: int = 3\n    d: int = 4\n    e: int = 5\n    f: int = 6\n"
    )
    page = (
        "# Reference\n\n[[autodoc]] models.Lenient\n\n[[autodoc]] models.Short\n\n"
        "[[autodoc]] models.Few\n\n[[autodoc]] models.Most\n"
    )
    _, findings = check_project(tmp_path, {"pkg/models.py": source, "docs/api.md": page}, "pkg")
    # A lenient model ignores an unknown keyword: no TypeError to promise.
    # Two parameters are too few to judge; three of six too few to say the
    # docstring is the reference that leaves the rest out. A field's
    # default given by position (``Field(8080)``) or by name is compared.
    assert {(f.code, f.key) for f in findings if "docstring" in f.message} == {
        ("CD104", "Lenient(port=)"),
        ("CD104", "Lenient(retries=)"),
        ("CD103", "Most(e=)"),
        ("CD103", "Most(f=)"),
    }


def test_the_calls_of_a_rendered_docstring_s_examples_are_judged(tmp_path) -> None:
    from configdrift.extract.python.docstrings import example_code

    model = (
        "from pkg.config import AdapterConfig\n\n\n"
        "class AdapterModel:\n"
        '    """The model.\n\n'
        "    Example:\n"
        "        ```py\n"
        "        >>> from pkg import AdapterModel, AdapterConfig\n"
        "        >>> config = AdapterConfig(\n"
        "        ...     rank=8,\n"
        "        ...     lora_alpha=16,\n"
        "        ... )\n"
        "        >>> model = AdapterModel(config)\n"
        "        ```\n"
        '    """\n\n'
        "    def __init__(self, config):\n"
        "        self.config = config\n\n\n"
        "class Unrendered:\n"
        '    """Not on any page.\n\n'
        "    >>> AdapterConfig(unknown=1)\n"
        '    """\n'
    )
    files = {
        "pkg/__init__.py": "from pkg.config import AdapterConfig\nfrom pkg.model import AdapterModel\n",
        "pkg/config.py": _DATACLASS,
        "pkg/model.py": model,
        "docs/reference.md": "# Reference\n\n[[autodoc]] model.AdapterModel\n",
    }
    _, findings = check_project(tmp_path, files, "pkg")
    calls = {(f.key, f.location.path, f.location.line) for f in findings if f.code == "CD301"}
    # The example of the rendered class only; the unrendered one's is no doc.
    assert calls == {("AdapterConfig(lora_alpha=)", "pkg/model.py", 12)}
    assert example_code(">>>x = 1\n>>> y = f(\n...   a=1)\ntext\n>>> z\n", 5) == [
        (6, "y = f(\n  a=1)"),
        (9, "z"),
    ]


def test_a_base_of_another_library_and_a_keyword_the_docstring_mentions(tmp_path) -> None:
    source = (
        "from dataclasses import dataclass\n\nfrom hub import PushToHubMixin\n"
        "from transformers import TrainingArguments\n\n\n"
        "@dataclass\nclass Mixed(PushToHubMixin):\n    size: int = 1\n\n\n"
        "@dataclass\nclass TrainConfig(TrainingArguments):\n"
        '    """Training.\n\n    Parameters:\n'
        "        max_length (`int`): The length.\n        packing (`bool`): Whether.\n"
        "        output_dir (`str`): Where; a field of the base.\n"
        "        seed_text (`str`): The seed. Pick a mode.\n\n"
        "    > - `learning_rate`: Defaults to `1e-6` instead of `5e-5`.\n"
        '    """\n\n'
        "    max_length: int = 1024\n    packing: bool = False\n    seed_text: str = ''\n"
        "    learning_rate: float = 1e-6\n    mode: str = 'a'\n"
    )
    files = {
        "pkg/__init__.py": "from pkg.config import Mixed, TrainConfig\n",
        "pkg/config.py": source,
        "docs/train.md": (
            "# Train\n\n[[autodoc]] config.TrainConfig\n\n```python\nfrom pkg import TrainConfig\n\n"
            "config = TrainConfig(output_dir='out', max_length=10)\nMixed(sise=2)\n```\n"
        ),
    }
    _, findings = check_project(tmp_path, files, "pkg")
    # The base of another library gives it fields no one can list
    # (`output_dir`), a mixin none; a keyword the docstring names anywhere
    # in code is described, a word of its prose ("a mode") is not.
    judged = {(f.code, f.key) for f in findings if f.code in ("CD101", "CD103", "CD301")}
    assert judged == {("CD301", "Mixed(sise=)"), ("CD103", "TrainConfig(mode=)")}


def test_the_docstring_fixture_project(tmp_path) -> None:
    import shutil
    from pathlib import Path

    from configdrift.config import Config
    from configdrift.engine import analyse
    from configdrift.rules.run import run_rules

    root = tmp_path / "project"
    shutil.copytree(Path(__file__).parent / "fixtures" / "docstrings", root)
    findings = run_rules(analyse(Config(root=root), jobs=1))
    assert {(f.code, f.key) for f in findings if f.code != "CD501"} == {
        ("CD104", "AdapterConfig(rank=)"),  # the docstring says 8, the field 16
        ("CD301", "AdapterConfig(scale=)"),  # its example passes what it does not take
        ("CD402", "train(lr=)"),  # the docs pass what it deprecates
        # A rendered function's docstring describes what it does not take,
        # and writes a parameter one letter off.
        ("CD101", "evaluate(dataset=)"),
        ("CD101", "evaluate(metric_name=)"),
        # Its calls, in its prose and its doctests, as the docs' calls.
        ("CD301", "AdapterConfig(dropuot=)"),
        ("CD301", "AdapterConfig(rnk=)"),
    }
    deprecated = {(f.location.path, f.location.line) for f in findings if f.code == "CD402"}
    assert deprecated == {("docs/api.md", 10), ("pkg/adapter.py", 56)}


def test_an_instance_or_another_function_is_no_default_the_docstring_states(tmp_path) -> None:
    source = (
        "import os\n\nfrom torch import nn\nimport torch.nn.functional as F\n\nfrom pkg import util\n\n\n"
        "class Weight:\n    pass\n\n\nWEIGHTS = {'x': Weight}\n\n\n"
        "def make_weight():\n    return None\n\n\n"
        "class Loss:\n"
        '    """Loss.\n\n    Args:\n'
        "        weight (Weight): The weighting. Default is None.\n"
        "        other (Weight): Another. Default is None.\n"
        "        third (Weight): A third. Default is None.\n"
        "        fourth (Weight): A fourth. Default is None.\n"
        "        activation (Module): The activation. Default is None.\n"
        "        similarity: The similarity. Default is ``util.pairwise_cos_sim``.\n"
        "        relu: The relu. Default is ``torch.nn.functional.relu``.\n"
        "        identity: The identity. Defaults to ``nn.Identity``.\n"
        '    """\n\n'
        "    def __init__(self, weight=Weight(), other=os.getenv('W'), third=make_weight(),\n"
        "                 fourth=WEIGHTS['x'](), activation=nn.ReLU(),\n"
        "                 similarity=util.cos_sim, relu=F.relu, identity=nn.Identity()):\n"
        "        pass\n"
    )
    files = {
        "pkg/__init__.py": "",
        "pkg/util.py": "def cos_sim(a, b):\n    return 0\n\n\ndef pairwise_cos_sim(a, b):\n    return 0\n",
        "pkg/losses.py": source,
        "docs/api.md": "# Losses\n\n[[autodoc]] losses.Loss\n",
    }
    _, findings = check_project(tmp_path, files, "pkg")
    # A class built is never None (the project's, or another library's
    # capitalised); a function's result may be. Another name differs; the
    # same one reached another way, or a class for its instance, does not.
    assert {f.key for f in findings if f.code == "CD104"} == {
        "Loss(weight=)",
        "Loss(activation=)",
        "Loss(similarity=)",
    }


def test_a_class_the_docstring_types_a_parameter_as_that_the_annotation_refuses(tmp_path) -> None:
    source = (
        "from typing import Optional\n\nfrom torch import nn\n\n\n"
        "class Base:\n    pass\n\n\nclass Special(Base):\n    pass\n\n\nclass Other:\n    pass\n\n\n"
        "def Factory():\n    return Other()\n\n\n"
        "class Trainer:\n"
        '    """Train.\n\n    Args:\n'
        "        model (:class:`~pkg.models.Other`): The model.\n"
        "        args (`Base`): Broader than the annotation.\n"
        "        card (Special): A subclass of what it takes.\n"
        "        data (Base): Optional.\n"
        "        loss (Other): Not annotated.\n"
        "        make (Factory): A function.\n"
        "        net (Other): Another library's class.\n"
        "        extra (dict): A word.\n"
        '    """\n\n'
        "    def __init__(self, model: Special | None = None, args: Special = None,\n"
        "                 card: Base = None, data: Optional[Special] = None, loss=None,\n"
        "                 extra: dict = None, make: Other = None, net: nn.Module = None):\n"
        "        pass\n"
    )
    files = {"pkg/models.py": source, "docs/api.md": "# API\n\n[[autodoc]] models.Trainer\n"}
    _, findings = check_project(tmp_path, files, "pkg")
    # Another class, or a base of the one it takes (optional too): refused.
    # A subclass of it is taken; a parameter with no annotation, a type
    # that is no class of the project, or an annotation of another
    # library's class says nothing.
    assert {f.key for f in findings if f.code == "CD105"} == {
        "Trainer(model=)",
        "Trainer(args=)",
        "Trainer(data=)",
    }


def test_a_page_that_only_renders_a_module_is_read_for_its_docstrings(tmp_path) -> None:
    source = (
        "class Loader:\n"
        '    """Load.\n\n    Args:\n'
        "        root (str): The root. Defaults to ``None``.\n"
        "        size (int): The size. Defaults to ``3``.\n"
        "        shuffle (bool): Whether. Defaults to ``None``.\n"
        "        ratio (float): Gone. Defaults to ``0.2``.\n"
        '    """\n\n'
        "    def __init__(self, root: str = 'data', size: int = 3, shuffle: bool = True):\n"
        "        pass\n"
    )
    page = "# Loader\n\n```{eval-rst}\n.. automodule:: pkg.loader\n   :members:\n```\n"
    files = {"pkg/__init__.py": "", "pkg/loader.py": source, "docs/api/loader.md": page}
    _, findings = check_project(tmp_path, files, "pkg")
    found = {(f.code, f.key) for f in findings if "docstring" in f.message}
    # A switch documented as None differs from its True; a string's None may
    # stand for unset.
    assert found == {("CD101", "Loader(ratio=)"), ("CD104", "Loader(shuffle=)")}
    # Without the directive the page is not read, and nothing is judged.
    files["docs/api/loader.md"] = "# Loader\n\nThe loader loads.\n"
    _, findings = check_project(tmp_path / "plain", files, "pkg")
    assert not [f for f in findings if "docstring" in f.message]


_CROSSOVER = (
    "class Crossover:\n"
    '    """Crossover.\n\n'
    "    Args:\n"
    "        eta: The index. See ``beta`` in the paper.\n"
    "        mix_prob: How often. ``1-use_chile_gene_prob`` is the other way.\n"
    "        use_child_gene_prob: The child's share.\n"
    "        min_gene_rate: Passed on as ``min_gene_rates`` to ``Mutate``.\n"
    "        max_gene_size: Read as ``max_gene_sizes`` by the runner.\n"
    "        tile_x: Beside ``tile_y``; there is no ``tile_z``.\n"
    "        tile_y: Kept under ``cache_limits``.\n"
    '    """\n\n'
    "    cache_limit: int = 3\n\n"
    "    def __init__(self, eta=None, mix_prob=0.5, use_child_gene_prob=0.5,\n"
    "                 min_gene_rate=0.1, max_gene_size=3, tile_x=1, tile_y=1{extra}):\n"
    "        self.eta = eta\n\n\n"
    "class Mutate:\n"
    "    def __init__(self, min_gene_rates=None):\n"
    "        self.rates = min_gene_rates\n\n\n"
    "def run(options):\n"
    '    return options["max_gene_sizes"]\n'
)


@pytest.mark.parametrize(
    ("extra", "expected"), [("", {(6, "use_chile_gene_prob")}), (", **kw", set())]
)
def test_a_keyword_a_rendered_docstring_misspells_in_code(tmp_path, extra, expected) -> None:
    files = {
        "pkg/ops.py": _CROSSOVER.replace("{extra}", extra),
        "docs/reference.rst": "Reference\n=========\n\n.. autoclass:: pkg.ops.Crossover\n",
    }
    _, findings = check_project(tmp_path, files, "pkg")
    found = {
        (f.location.line, f.key.partition("(")[2].rstrip("=)"))
        for f in findings
        if f.code == "CD101" and "one letter from" in f.message
    }
    # ``beta`` (a short word beside ``eta``), ``min_gene_rates`` (a parameter
    # of another class) and ``max_gene_sizes`` (a key the code quotes) are
    # names of their own; ``tile_z`` is one letter from two keywords, and
    # ``cache_limits`` from a class attribute the constructor does not
    # take; behind ``**kw`` any keyword may be taken.
    assert found == expected
    if expected:
        (finding,) = [f for f in findings if "one letter from" in f.message]
        assert finding.key == "Crossover(use_chile_gene_prob=)"
        assert "`use_child_gene_prob`" in finding.message
        assert "docs/reference.rst" in finding.message


def test_a_docstring_no_page_renders_misspells_nothing_it_reports(tmp_path) -> None:
    files = {"pkg/ops.py": _CROSSOVER.replace("{extra}", ""), "docs/index.rst": "Home\n====\n"}
    _, findings = check_project(tmp_path, files, "pkg")
    assert not [f for f in findings if "one letter from" in f.message]


_SUBCLASS = '''from dataclasses import dataclass


@dataclass
class BaseArguments:
    """Base.

    Args:
        prompts (str): The prompts.
        sampler (Union[:class:`~pkg.args.BatchSamplers`, `str`, :class:`~pkg.sampler.DefaultBatchSampler`, Callable[[...], :class:`~pkg.sampler.DefaultBatchSampler`], :class:`~pkg.sampler.AnotherBatchSampler`], *optional*):
            The sampler.
        mapping (dict): The mapping.
        rates (dict): The rates.
    """

    prompts: str = ""
    sampler: str = "batch"
    mapping: dict = None
    rates: dict = None


class CrossArguments(BaseArguments):
    """Cross.

    Args:
        prompts (str): The prompts.
        sampler (Union[:class:`~pkg.args.BatchSamplers`, `str`, :class:`~pkg.sampler.DefaultBatchSampler`, Callable[[...], :class:`~pkg.sampler.DefaultBatchSampler`], :class:`~pkg.sampler.AnotherBatchSampler`], *optional*):
            The sampler.
        rates (dict): The rates.
    """
{body}'''


def test_a_subclass_that_only_says_its_bases_fields_anew_documents_them(tmp_path) -> None:
    page = "# Arguments\n\n[[autodoc]] args.CrossArguments\n\n[[autodoc]] args.BaseArguments\n"
    files = {"pkg/args.py": _SUBCLASS.replace("{body}", ""), "docs/args.md": page}
    _, findings = check_project(tmp_path, files, "pkg")
    found = {(f.code, f.key) for f in findings if f.code == "CD103"}
    # The base's docstring describes all four (a type that runs long is
    # read); the subclass's leaves out `mapping`, a field it takes.
    assert found == {("CD103", "CrossArguments(mapping=)")}
    # A subclass with a field of its own documents its own only.
    own = _SUBCLASS.replace("{body}", "\n    extra: int = 0\n")
    _, findings = check_project(tmp_path / "own", {"pkg/args.py": own, "docs/args.md": page}, "pkg")
    assert not [f for f in findings if f.code == "CD103"]


_ATTRS = (
    "from attrs import define, field\n\n\n"
    "@define\nclass Context:\n"
    '    """The context.\n\n'
    "    Args:\n"
    "        path: Where it is.\n"
    "        package_name: The package.\n"
    "        hooks: The hooks.\n"
    "        env: The environment.\n"
    '    """\n\n'
    "    path: str = field()\n"
    "    _package_name: str = field()\n"
    "    _hook_manager: object = field(alias='hooks')\n"
    "    env: str = field(default='local')\n"
    "    _cache: dict = field(init=False)\n"
)


def _rendered(tmp_path, module: str, source: str) -> list:
    """The findings on ``pkg/<module>.py`` whose class ``Context`` a page renders."""
    files = {
        f"pkg/{module}.py": source,
        "docs/reference.md": f"# Reference\n\n[[autodoc]] {module}.Context\n",
    }
    return check_project(tmp_path, files, "pkg")[1]


def test_an_attrs_private_field_is_taken_by_its_name_without_the_underscore(tmp_path) -> None:
    # attrs takes ``_package_name`` as ``package_name=``, ``_hook_manager``
    # as its ``alias=``; ``init=False`` takes no keyword.
    findings = _rendered(tmp_path, "context", _ATTRS)
    assert not [f for f in findings if f.code in ("CD101", "CD103")]
    # A keyword the docstring names otherwise is not taken.
    named = _ATTRS.replace("        hooks: The hooks.\n", "        hook_manager: Hooks.\n")
    findings = _rendered(tmp_path / "named", "context", named)
    assert {(f.code, f.key) for f in findings if f.code == "CD101"} == {
        ("CD101", "Context(hook_manager=)")
    }


def test_a_dataclass_private_field_keeps_its_underscore(tmp_path) -> None:
    # A dataclass takes ``_package_name=``: ``package_name=`` raises.
    source = _ATTRS.replace(
        "from attrs import define, field", "from dataclasses import dataclass, field"
    )
    source = source.replace("@define", "@dataclass").replace("alias='hooks'", "default=None")
    source = source.replace("field()", "field(default='')")
    # In a module named for upgrades, code is no guide to the past: an error.
    found = {(f.code, f.key): f for f in _rendered(tmp_path, "upgrader", source)}
    assert found[("CD101", "Context(package_name=)")].severity.value == "error"


_RETRIES = (
    "class Retries:\n"
    '    """Retry.\n\n'
    "    Args:\n"
    "      max_retries(int): How many.\n"
    "      min_backoff(int): The least.\n"
    "      jitter(int): The jitter.\n"
    '    """\n\n'
    "    def __init__(self, max_retries=1, min_backoff=2):\n"
    "        self.max_retries = max_retries\n"
)


@pytest.mark.parametrize(
    ("page", "init", "found"),
    [
        # ``__all__`` lists a class the package imports: Sphinx renders it.
        (".. automodule:: pkg\n   :members:\n", '__all__ = ["Retries"]\n', True),
        # No ``:members:``: only the module's docstring; told to ignore
        # ``__all__``: only what the module defines.
        (".. automodule:: pkg\n", '__all__ = ["Retries"]\n', False),
        (
            ".. automodule:: pkg\n   :members:\n   :ignore-module-all:\n",
            '__all__ = ["Retries"]\n',
            False,
        ),
        # Imported, but not listed.
        (".. automodule:: pkg\n   :members:\n", '__all__ = ["VERSION"]\nVERSION = "1"\n', False),
    ],
)
def test_a_class_a_package_exports_is_rendered_with_its_members(
    tmp_path, page, init, found
) -> None:
    files = {
        "pkg/__init__.py": "from pkg.retry import Retries\n\n" + init,
        "pkg/retry.py": _RETRIES,
        "docs/api.rst": "API\n===\n\n" + page,
    }
    _, findings = check_project(tmp_path, files, "pkg")
    keys = {(f.code, f.key) for f in findings}
    assert (("CD101", "Retries(jitter=)") in keys) is found


@pytest.mark.parametrize(
    ("page", "found"),
    [
        ("```{automodule} pkg\n:members:\n```\n", True),
        ("```{automodule} pkg\n```\n", False),
        ("```{eval-rst}\n.. automodule:: pkg\n   :members:\n```\n", True),
        ("```{eval-rst}\n.. automodule:: pkg\n   :undoc-members:\n```\n", False),
        # Another directive's options.
        (
            "```{eval-rst}\n.. automodule:: pkg\n\n.. autoclass:: pkg.Other\n   :members:\n```\n",
            False,
        ),
        # The members it lists, those alone.
        ("```{eval-rst}\n.. automodule:: pkg\n   :members: Other, Loader\n```\n", False),
        ("```{eval-rst}\n.. automodule:: pkg\n   :members: Loader, Retries\n```\n", True),
        ("```{automodule} pkg\n:members: Other\n```\n", False),
    ],
)
def test_a_myst_automodule_with_its_members(tmp_path, page, found) -> None:
    files = {
        "pkg/__init__.py": 'from pkg.retry import Retries\n\n__all__ = ["Retries"]\n',
        "pkg/retry.py": _RETRIES,
        "docs/api.md": "# API\n\n" + page,
    }
    _, findings = check_project(tmp_path, files, "pkg")
    assert (("CD101", "Retries(jitter=)") in {(f.code, f.key) for f in findings}) is found


def test_an_rst_automodule_renders_the_members_it_lists(tmp_path) -> None:
    files = {
        "pkg/__init__.py": 'from pkg.retry import Retries\n\n__all__ = ["Retries"]\n',
        "pkg/retry.py": _RETRIES,
        "docs/api.rst": "API\n===\n\n.. automodule:: pkg\n   :members: Other\n",
    }
    _, findings = check_project(tmp_path, files, "pkg")
    assert ("CD101", "Retries(jitter=)") not in {(f.code, f.key) for f in findings}


@pytest.mark.parametrize(
    ("text", "default"),
    [
        ("The factor. Defaults to 1./3.", None),
        ("The ceiling. Defaults to 2.**24.", None),
        ("The ratio (default: 1/3).", None),
        ("The wait. Defaults to 15 seconds.", None),
        ("The factor. Defaults to 1.", "1"),
        ("The factor. Defaults to 0.5. Larger is slower.", "0.5"),
    ],
)
def test_a_default_stated_as_a_sum_is_no_value(text, default) -> None:
    from configdrift.extract.python.docstrings import _default

    assert _default(text, "factor") == default
