"""Weights and cut-offs of the answer path, fitted on dev question sets only.

Written by scripts/fit_answering.py on 2026-11-25 from 507 dev questions:
    fixtures/eval/real/dev.jsonl:Evaluation corpus
    fixtures/eval/questions.jsonl:General
Do not edit by hand: change the features or the data and fit again (see the script's docstring).
"""

RERANK = {'bias': -6.0831, 'coverage': 1.6702, 'bm25': 1.5027, 'heading': 0.3084, 'dense': 1.6363, 'identifier': 0.3606, 'lexical_rank': 0.7276, 'dense_rank': 1.6701}
UNIT = {'bias': -4.4977, 'code': 0.4044, 'coverage': 0.5354, 'coverage_rel': 1.1059, 'default_match': 0.4196, 'first_in_section': -0.2812, 'focus_coverage': 0.7598, 'focus_coverage_rel': 1.1517, 'heading_coverage': 0.4578, 'howto_action': 0.514, 'howto_code': 0.2867, 'identifier_match': 0.0553, 'item': 0.0006, 'lead': -0.4022, 'length': -0.1455, 'name_match': 0.4619, 'names_code': 0.2521, 'number_match': 0.6661, 'passage_score': 0.395, 'passage_top': 1.0634, 'position': -0.3289, 'pronoun_start': -0.3858, 'quotable': -0.0153, 'row': -0.1678, 'term_coverage': 0.1286, 'window': 0.2204}
UNIT_DENSE = {'bias': -1.1299, 'code': 0.0306, 'coverage': 0.2594, 'coverage_rel': -0.1187, 'default_match': 0.1825, 'first_in_section': -0.0006, 'focus_coverage': 0.3838, 'focus_coverage_rel': -0.1881, 'heading_coverage': 0.3168, 'howto_action': 0.3798, 'howto_code': 0.1259, 'identifier_match': -0.0592, 'item': 0.0664, 'lead': -0.0384, 'length': 0.0505, 'name_match': 0.2357, 'names_code': -0.1817, 'number_match': -0.0554, 'passage_score': 0.386, 'passage_top': -0.0171, 'position': 0.0181, 'pronoun_start': -0.055, 'quotable': 0.0772, 'row': -0.204, 'term_coverage': -0.0033, 'window': -0.0073, 'unit_dense': 0.9075, 'dense_gap': -0.5838, 'lexical_logit': 0.8496}
COMPOSE = {'same_passage': 0.7, 'other_passage': 0.6, 'min_coverage': 0.0, 'max_units': 4}
REFUSAL = {'bias': -3.4308, 'best_unit_dense': 1.1675, 'top_score': 1.0855, 'coverage': 0.4985, 'answer_coverage': 0.2367, 'focus_coverage': 0.3241, 'best_unit': 0.9759, 'missing_idf': -0.7465, 'missing_unseen': 0.029, 'missing_identifier': -0.8014, 'fact_missing': -2.3025, 'dense_top': 2.026, 'question_terms': 1.0068, 'missing_specific': -0.724, 'missing_specific_count': -0.3985, 'missing_generic_count': -0.1966, 'identifier_on_top': 0.3843, 'casual': 1.2864}
REFUSE_BELOW = 0.55
CONFIDENCE = {'bias': -2.2567, 'strength': 0.7652, 'best_unit': 1.2635, 'verification': 0.4602, 'fact_missing': -0.2669, 'focus_coverage': 0.8687, 'top_score': 0.3778, 'answer_coverage': 1.2401}
