"""Weights and cut-offs of the answer path, fitted on dev question sets only.

Written by scripts/fit_answering.py on 2026-11-29 from 1220 dev questions:
    fixtures/eval/real/dev.jsonl:Evaluation corpus
    fixtures/eval/questions.jsonl:General
Do not edit by hand: change the features or the data and fit again (see the script's docstring).
"""

RERANK = {'bias': -8.4012, 'coverage': 0.6637, 'bm25': 1.4014, 'heading': 1.3372, 'dense': 1.107, 'identifier': 0.2012, 'lexical_rank': 0.0331, 'dense_rank': 0.2942, 'doc_coverage': 3.4134, 'doc_count': -1.8437, 'doc_dense_max': 2.7483, 'doc_best_dense': -0.1031}
UNIT = {'bias': -4.76, 'code': 0.5697, 'coverage': 0.3078, 'coverage_rel': 0.8362, 'default_match': 0.9521, 'first_in_section': -0.0969, 'focus_coverage': 1.461, 'focus_coverage_rel': 0.1965, 'heading_coverage': 0.9644, 'howto_action': 0.7452, 'howto_code': 0.2979, 'identifier_match': -0.1279, 'item': -0.1218, 'lead': -0.0638, 'length': -0.2895, 'name_match': 0.7206, 'names_code': -0.0515, 'number_match': 1.3781, 'passage_score': 2.1916, 'passage_top': 0.5104, 'position': 0.1098, 'pronoun_start': -0.1512, 'quotable': 0.2822, 'row': 0.3663, 'term_coverage': 1.013, 'window': 0.0236}
UNIT_DENSE = {'bias': -2.1312, 'code': 0.1981, 'coverage': 0.2067, 'coverage_rel': 0.2032, 'default_match': -0.1399, 'first_in_section': -0.05, 'focus_coverage': 0.5054, 'focus_coverage_rel': 0.354, 'heading_coverage': 0.0523, 'howto_action': 0.3687, 'howto_code': 0.1448, 'identifier_match': -0.0613, 'item': -0.0251, 'lead': -0.1372, 'length': 0.1802, 'name_match': 0.2398, 'names_code': 0.0527, 'number_match': -0.29, 'passage_score': -0.3852, 'passage_top': 0.4894, 'position': -0.1394, 'pronoun_start': -0.18, 'quotable': 0.015, 'row': -0.2566, 'term_coverage': 0.0003, 'window': 0.1266, 'unit_dense': 1.1298, 'dense_gap': -0.642, 'lexical_logit': 0.5671}
COMPOSE = {'same_passage': 0.3, 'other_passage': 0.4, 'min_coverage': 0.0, 'max_units': 4}
REFUSAL = {'bias': -4.1538, 'best_unit_dense': 0.8311, 'top_score': 1.1823, 'coverage': 0.1927, 'answer_coverage': 0.3805, 'focus_coverage': -0.1154, 'best_unit': 1.5131, 'missing_idf': -0.8389, 'missing_unseen': -0.2227, 'missing_identifier': -0.4772, 'fact_missing': -0.9704, 'dense_top': 1.3055, 'question_terms': 0.8826, 'missing_specific': -0.6249, 'missing_specific_count': -1.2529, 'missing_generic_count': -0.5689, 'identifier_on_top': 0.1414, 'casual': 0.2876, 'missing_story_count': 0.4295, 'kind_about': 2.5596}
REFUSE_BELOW = 0.57
CONFIDENCE = {'bias': -1.2261, 'strength': 1.3663, 'best_unit': 1.838, 'verification': -0.0046, 'fact_missing': 0.0, 'focus_coverage': 0.1948, 'top_score': 0.0799, 'answer_coverage': 0.6839}
