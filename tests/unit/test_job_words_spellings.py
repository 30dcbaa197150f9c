"""Finding a job by its words (issue 36.3), the words themselves: a keyword written without spaces has the words
written with them, and a model number both spellings."""

from __future__ import annotations

from infra.text.search_words import job_words, query_words


def test_a_keyword_written_without_spaces_has_the_words_written_with_them_and_a_model_number_both_spellings():
    assert job_words("갤럭시버즈3케이스") == ["갤럭시", "버즈3", "케이스"]
    assert job_words("삼성 갤럭시 버즈3 프로", "SM-R630") == ["삼성", "갤럭시", "버즈3", "프로", "sm-r630", "smr630"]
    assert query_words("버즈3  갤럭시 갤럭시") == ["버즈3", "갤럭시"]
    assert query_words("?!") == []
