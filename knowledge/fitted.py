"""Weights and cut-offs of the answer path, fitted on dev question sets only.

Written by scripts/fit_answering.py on 2026-11-24 from 507 dev questions:
    fixtures/eval/real/dev.jsonl:Evaluation corpus
    fixtures/eval/questions.jsonl:General
Do not edit by hand: change the features or the data and fit again (see the script's docstring).
"""

RERANK = {'bias': -6.087, 'coverage': 1.6492, 'bm25': 1.5059, 'heading': 0.3243, 'dense': 1.6371, 'identifier': 0.3634, 'lexical_rank': 0.726, 'dense_rank': 1.662}
UNIT = {'bias': -4.566, 'code': 0.2919, 'coverage': 0.5275, 'coverage_rel': 1.1123, 'default_match': 0.4273, 'first_in_section': -0.2772, 'focus_coverage': 0.7517, 'focus_coverage_rel': 1.1688, 'heading_coverage': 0.4616, 'howto_action': 0.4969, 'howto_code': 0.2527, 'identifier_match': 0.0589, 'item': 0.0058, 'lead': -0.3506, 'length': -0.2187, 'name_match': 0.5098, 'names_code': 0.2522, 'number_match': 0.6832, 'passage_score': 0.4534, 'passage_top': 1.0557, 'position': -0.3069, 'pronoun_start': -0.3805, 'quotable': 0.0264, 'row': -0.1631, 'term_coverage': 0.1283, 'window': 0.235}
UNIT_DENSE = {'bias': -1.0596, 'code': 0.0377, 'coverage': 0.1891, 'coverage_rel': 0.0255, 'default_match': 0.1244, 'first_in_section': -0.0217, 'focus_coverage': 0.2338, 'focus_coverage_rel': 0.0035, 'heading_coverage': 0.1136, 'howto_action': 0.2249, 'howto_code': 0.0826, 'identifier_match': -0.0335, 'item': 0.0159, 'lead': -0.0132, 'length': -0.0099, 'name_match': 0.0924, 'names_code': -0.0805, 'number_match': -0.0376, 'passage_score': 0.2686, 'passage_top': 0.0707, 'position': 0.0066, 'pronoun_start': -0.025, 'quotable': 0.0067, 'row': -0.1082, 'term_coverage': 0.0212, 'window': 0.0044, 'unit_dense': 0.4473, 'dense_gap': -0.283, 'lexical_logit': 0.7951}
COMPOSE = {'same_passage': 0.7, 'other_passage': 0.6, 'min_coverage': 0.15, 'max_units': 4}
REFUSAL = {'bias': -3.3771, 'best_unit_dense': 1.1794, 'top_score': 1.1521, 'coverage': 0.737, 'answer_coverage': 0.0522, 'focus_coverage': 0.2507, 'best_unit': 0.734, 'missing_idf': -0.7409, 'missing_unseen': 0.0366, 'missing_identifier': -0.9838, 'fact_missing': -1.2705, 'dense_top': 2.1423, 'question_terms': 1.0157, 'missing_specific': -0.4469, 'missing_specific_count': -0.036, 'missing_generic_count': -0.2425, 'identifier_on_top': 0.1488}
REFUSE_BELOW = 0.54
CONFIDENCE = {'bias': -1.7253, 'strength': -0.2577, 'best_unit': 2.049, 'verification': 0.668, 'fact_missing': -0.8913, 'focus_coverage': 1.6589, 'top_score': 0.8204}
