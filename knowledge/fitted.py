"""Weights and cut-offs of the answer path, fitted on dev question sets only.

Written by scripts/fit_answering.py on 2026-11-25 from 641 dev questions:
    fixtures/eval/real/dev.jsonl:Evaluation corpus
    fixtures/eval/questions.jsonl:General
Do not edit by hand: change the features or the data and fit again (see the script's docstring).
"""

RERANK = {'bias': -6.018, 'coverage': 1.5911, 'bm25': 1.3797, 'heading': 0.2449, 'dense': 1.8226, 'identifier': 0.2794, 'lexical_rank': 0.6774, 'dense_rank': 1.6679}
UNIT = {'bias': -4.6519, 'code': 0.5211, 'coverage': 0.5416, 'coverage_rel': 1.1687, 'default_match': 0.4124, 'first_in_section': -0.3127, 'focus_coverage': 0.6845, 'focus_coverage_rel': 1.2016, 'heading_coverage': 0.583, 'howto_action': 0.5485, 'howto_code': 0.3225, 'identifier_match': -0.0618, 'item': -0.0976, 'lead': -0.3404, 'length': -0.0755, 'name_match': 0.4805, 'names_code': 0.2675, 'number_match': 0.7282, 'passage_score': 0.4918, 'passage_top': 1.0021, 'position': -0.1756, 'pronoun_start': -0.34, 'quotable': 0.04, 'row': -0.191, 'term_coverage': 0.1426, 'window': 0.2078}
UNIT_DENSE = {'bias': -1.1761, 'code': 0.0525, 'coverage': 0.1964, 'coverage_rel': -0.0886, 'default_match': 0.0984, 'first_in_section': 0.0083, 'focus_coverage': 0.3569, 'focus_coverage_rel': -0.184, 'heading_coverage': 0.3178, 'howto_action': 0.3586, 'howto_code': 0.098, 'identifier_match': -0.1006, 'item': 0.0707, 'lead': -0.0245, 'length': 0.0586, 'name_match': 0.2772, 'names_code': -0.1534, 'number_match': -0.072, 'passage_score': 0.366, 'passage_top': -0.0325, 'position': 0.0059, 'pronoun_start': -0.0493, 'quotable': 0.0549, 'row': -0.1788, 'term_coverage': 0.0543, 'window': -0.0072, 'unit_dense': 0.999, 'dense_gap': -0.5613, 'lexical_logit': 0.8486}
COMPOSE = {'same_passage': 0.5, 'other_passage': 0.6, 'min_coverage': 0.0, 'max_units': 4}
REFUSAL = {'bias': -2.2, 'best_unit_dense': 0.6714, 'top_score': 0.8083, 'coverage': 0.4339, 'answer_coverage': 0.3043, 'focus_coverage': 0.2839, 'best_unit': 0.7407, 'missing_idf': -0.5283, 'missing_unseen': -0.1183, 'missing_identifier': -0.4344, 'fact_missing': -1.7507, 'dense_top': 0.8959, 'question_terms': 0.6187, 'missing_specific': -0.6333, 'missing_specific_count': -0.2531, 'missing_generic_count': -0.0457, 'identifier_on_top': 0.2774, 'casual': 0.9908}
REFUSE_BELOW = 0.56
CONFIDENCE = {'bias': -2.3923, 'strength': 1.1288, 'best_unit': 1.483, 'verification': 0.3715, 'fact_missing': -1.3383, 'focus_coverage': 0.2216, 'top_score': 0.5306, 'answer_coverage': 1.4525}
