"""The text primitives every part of Verity shares (pure Python, no Django): sentences, citation
markers, identifiers, words and stop words, pipe tables, and the record form of a claim verdict."""
