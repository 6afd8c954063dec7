"""The text primitives every part of Verity shares (pure Python, no Django): sentences, citation
markers, identifiers, words and stop words, and the record form of a claim verdict."""
