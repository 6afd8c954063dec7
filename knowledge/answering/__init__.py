"""The question path: `answer_question(question, options)` → AnswerResult."""

from knowledge.answering.result import AnswerResult, Citation
from knowledge.answering.service import (MAX_QUESTION_CHARS, AskOptions, QuestionError, answer_question, check_question,
                                        find_passages)

__all__ = ["AnswerResult", "AskOptions", "Citation", "MAX_QUESTION_CHARS", "QuestionError", "answer_question",
           "check_question", "find_passages"]
