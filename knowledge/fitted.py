"""Weights and cut-offs of the answer path, fitted on dev question sets only.

Written by scripts/fit_answering.py on 2026-11-23 from 417 dev questions:
    fixtures/eval/real/dev.jsonl:Evaluation corpus
    fixtures/eval/questions.jsonl:General
Do not edit by hand: change the features or the data and fit again (see the script's docstring).
"""

RERANK = {'bias': -6.0752, 'coverage': 1.6222, 'bm25': 1.5058, 'heading': 0.3101, 'dense': 1.6591, 'identifier': 0.4015, 'lexical_rank': 0.7982, 'dense_rank': 1.7203}
UNIT = {'bias': -4.088, 'code': 0.4166, 'coverage': 1.4994, 'default_match': 0.521, 'first_in_section': -0.2417, 'focus_coverage': 1.8277, 'heading_coverage': 0.2576, 'howto_code': 0.5606, 'identifier_match': 0.2325, 'item': 0.0378, 'lead': -0.3361, 'length': -0.0143, 'name_match': 0.5794, 'number_match': 0.802, 'passage_score': 0.2216, 'passage_top': 1.2253, 'position': -0.4421, 'pronoun_start': -0.4158, 'quotable': -0.0158, 'row': -0.1809, 'term_coverage': 0.114, 'window': 0.3193}
UNIT_DENSE = {'bias': -0.9463, 'code': 0.196, 'coverage': 0.0236, 'default_match': 0.2204, 'first_in_section': -0.0796, 'focus_coverage': -0.3221, 'heading_coverage': 0.7117, 'howto_code': 0.6788, 'identifier_match': -0.2061, 'item': 0.421, 'lead': 0.0075, 'length': -0.0547, 'name_match': 0.1251, 'number_match': 0.181, 'passage_score': -0.8264, 'passage_top': 0.1326, 'position': -0.192, 'pronoun_start': 0.0245, 'quotable': 0.3866, 'row': -0.4146, 'term_coverage': -0.3026, 'window': 0.0773, 'unit_dense': 2.2035, 'lexical_logit': 1.0299}
COMPOSE = {'same_passage': 0.5, 'other_passage': 0.6, 'min_coverage': 0.15, 'max_units': 4}
REFUSAL = {'bias': -2.4423, 'top_score': 1.384, 'coverage': 0.6286, 'answer_coverage': 0.1638, 'focus_coverage': 0.2977, 'best_unit': 0.3733, 'missing_idf': -0.6286, 'missing_unseen': -0.2476, 'missing_identifier': -0.5095, 'fact_missing': -0.2761, 'dense_top': 1.5117, 'question_terms': 1.2111, 'missing_specific': -0.6727, 'missing_specific_count': 0.1491, 'missing_generic_count': -0.0037}
REFUSE_BELOW = 0.54
CONFIDENCE = {'bias': -1.1036, 'strength': 0.1245, 'best_unit': 1.2011, 'verification': 0.4047, 'fact_missing': -0.2427, 'focus_coverage': 0.8346, 'top_score': 0.9527}
