"""Weights and cut-offs of the answer path, fitted on dev question sets only.

Written by scripts/fit_answering.py on 2026-11-24 from 507 dev questions:
    fixtures/eval/real/dev.jsonl:Evaluation corpus
    fixtures/eval/questions.jsonl:General
Do not edit by hand: change the features or the data and fit again (see the script's docstring).
"""

RERANK = {'bias': -6.087, 'coverage': 1.6492, 'bm25': 1.5059, 'heading': 0.3243, 'dense': 1.6371, 'identifier': 0.3634, 'lexical_rank': 0.726, 'dense_rank': 1.662}
UNIT = {'bias': -4.111, 'code': 0.4041, 'coverage': 1.5677, 'default_match': 0.4111, 'first_in_section': -0.2592, 'focus_coverage': 1.9377, 'heading_coverage': 0.2586, 'howto_code': 0.526, 'identifier_match': 0.2145, 'item': -0.0501, 'lead': -0.3732, 'length': -0.0677, 'name_match': 0.5669, 'number_match': 0.691, 'passage_score': 0.1499, 'passage_top': 1.2149, 'position': -0.3192, 'pronoun_start': -0.4063, 'quotable': 0.022, 'row': -0.1769, 'term_coverage': 0.2621, 'window': 0.3147}
UNIT_DENSE = {'bias': -1.1403, 'code': 0.0986, 'coverage': 0.1184, 'default_match': 0.1083, 'first_in_section': -0.036, 'focus_coverage': 0.1537, 'heading_coverage': 0.3779, 'howto_code': 0.4573, 'identifier_match': -0.0524, 'item': 0.1991, 'lead': -0.0153, 'length': -0.1009, 'name_match': 0.1457, 'number_match': -0.1059, 'passage_score': 0.0727, 'passage_top': -0.1573, 'position': -0.0856, 'pronoun_start': 0.0212, 'quotable': 0.1171, 'row': -0.264, 'term_coverage': -0.0021, 'window': 0.0229, 'unit_dense': 1.4458, 'lexical_logit': 0.8551}
COMPOSE = {'same_passage': 0.5, 'other_passage': 0.7, 'min_coverage': 0.15, 'max_units': 4}
REFUSAL = {'bias': -3.2369, 'best_unit_dense': 0.7884, 'top_score': 1.1501, 'coverage': 0.6723, 'answer_coverage': -0.0705, 'focus_coverage': 0.3634, 'best_unit': 0.9661, 'missing_idf': -0.6758, 'missing_unseen': 0.0346, 'missing_identifier': -1.0088, 'fact_missing': -1.3575, 'dense_top': 2.2174, 'question_terms': 1.0882, 'missing_specific': -0.4752, 'missing_specific_count': -0.0007, 'missing_generic_count': -0.1978, 'identifier_on_top': 0.13}
REFUSE_BELOW = 0.53
CONFIDENCE = {'bias': -2.8159, 'strength': 0.0762, 'best_unit': 2.1749, 'verification': 1.6192, 'fact_missing': -0.1526, 'focus_coverage': 1.0078, 'top_score': 1.0948}
