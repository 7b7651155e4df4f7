"""Doc pages, one module per markup, each a pure function of a page's bytes
to ``facts.DocFacts`` (sections, key entries, example blocks):

- ``markdown`` (CommonMark with tables and MkDocs admonitions; the walker
  of entry forms) over ``markdown_tokens``, and ``mdx`` for MDX pages;
- ``rst`` (reStructuredText through docutils), bounded by ``rst_budget``;
- ``blocks``: the example blocks of any markup, read by their language;
- ``entry_text``: the rules every markup shares (what spells a key, a
  documented type or default in prose); ``page``: a page's text and bounds.
"""
