"""Weights and cut-offs of the answer path, fitted on dev question sets only.

Written by scripts/fit_answering.py on 2026-11-24 from 507 dev questions:
    fixtures/eval/real/dev.jsonl:Evaluation corpus
    fixtures/eval/questions.jsonl:General
Do not edit by hand: change the features or the data and fit again (see the script's docstring).
"""

RERANK = {'bias': -6.087, 'coverage': 1.6492, 'bm25': 1.5059, 'heading': 0.3243, 'dense': 1.6371, 'identifier': 0.3634, 'lexical_rank': 0.726, 'dense_rank': 1.662}
UNIT = {'bias': -4.4093, 'code': 0.3611, 'coverage': 0.4797, 'coverage_rel': 1.1737, 'default_match': 0.4222, 'first_in_section': -0.2829, 'focus_coverage': 0.6809, 'focus_coverage_rel': 1.2138, 'heading_coverage': 0.4576, 'howto_code': 0.4501, 'identifier_match': 0.1123, 'item': -0.0224, 'lead': -0.3733, 'length': -0.2341, 'name_match': 0.5607, 'number_match': 0.6635, 'passage_score': 0.4211, 'passage_top': 1.0549, 'position': -0.2813, 'pronoun_start': -0.4035, 'quotable': -0.001, 'row': -0.1971, 'term_coverage': 0.205, 'window': 0.2667}
UNIT_DENSE = {'bias': -1.1457, 'code': 0.0547, 'coverage': 0.1816, 'coverage_rel': 0.0428, 'default_match': 0.1299, 'first_in_section': -0.001, 'focus_coverage': 0.2183, 'focus_coverage_rel': 0.0222, 'heading_coverage': 0.1476, 'howto_code': 0.1539, 'identifier_match': -0.0332, 'item': 0.0122, 'lead': -0.0374, 'length': -0.0053, 'name_match': 0.065, 'number_match': -0.0504, 'passage_score': 0.28, 'passage_top': 0.0834, 'position': -0.022, 'pronoun_start': -0.0181, 'quotable': 0.0164, 'row': -0.1028, 'term_coverage': 0.0265, 'window': 0.0203, 'unit_dense': 0.4659, 'dense_gap': -0.2828, 'lexical_logit': 0.7896}
COMPOSE = {'same_passage': 0.7, 'other_passage': 0.6, 'min_coverage': 0.15, 'max_units': 4}
REFUSAL = {'bias': -3.3243, 'best_unit_dense': 1.1356, 'top_score': 1.1863, 'coverage': 0.7571, 'answer_coverage': -0.0094, 'focus_coverage': 0.2344, 'best_unit': 0.6941, 'missing_idf': -0.7609, 'missing_unseen': 0.0417, 'missing_identifier': -0.9818, 'fact_missing': -1.2372, 'dense_top': 2.169, 'question_terms': 1.0002, 'missing_specific': -0.452, 'missing_specific_count': -0.0521, 'missing_generic_count': -0.2584, 'identifier_on_top': 0.1575}
REFUSE_BELOW = 0.53
CONFIDENCE = {'bias': -1.8708, 'strength': -0.258, 'best_unit': 2.7002, 'verification': 0.6521, 'fact_missing': -0.526, 'focus_coverage': 1.5157, 'top_score': 0.7326}
