"""The question path: `answer_question(question, options)` → AnswerResult."""

from knowledge.answering.result import AnswerResult, Citation
from knowledge.answering.service import AskOptions, answer_question, find_passages

__all__ = ["AnswerResult", "AskOptions", "Citation", "answer_question", "find_passages"]
