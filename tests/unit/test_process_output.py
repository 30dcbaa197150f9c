"""What a stop test accepts as Python's own report of a Ctrl-C during the interpreter's start-up."""

from tests.process_output import ROOT, interrupted_while_python_starts

#: What CPython 3.13 printed when SIGINT reached the group 0.03 s into `lps dev` (CI, stop fuzzer seed 4132742055):
#: the thread dump after "KeyboardInterrupt" ends the text.
FATAL_IN_SITE = """Fatal Python error: init_import_site: Failed to import the site module
Python runtime state: initialized
KeyboardInterrupt

Current thread 0x00007fc824023b80 (most recent call first):
  <no Python frame>"""

TRACEBACK_IN_IMPORTLIB = """Traceback (most recent call last):
  File "<frozen runpy>", line 189, in _run_module_as_main
  File "<frozen importlib._bootstrap>", line 1360, in _find_and_load
KeyboardInterrupt"""


def test_a_fatal_error_in_site_ending_with_its_thread_dump_is_pythons_start_up():
    assert interrupted_while_python_starts(FATAL_IN_SITE)


def test_a_keyboard_interrupt_traceback_outside_lps_code_is_pythons_start_up():
    assert interrupted_while_python_starts(TRACEBACK_IN_IMPORTLIB)


def test_a_traceback_through_lps_own_file_is_not_pythons_start_up():
    through_lps = TRACEBACK_IN_IMPORTLIB.replace(
        "KeyboardInterrupt", f'  File "{ROOT}/tools/lps.py", line 12, in <module>\nKeyboardInterrupt'
    )
    assert not interrupted_while_python_starts(through_lps)


def test_a_frame_in_the_virtualenv_is_not_lps_code():
    through_venv = TRACEBACK_IN_IMPORTLIB.replace(
        "KeyboardInterrupt", f'  File "{ROOT}/.venv/lib/python3.13/site-packages/x.py", line 1\nKeyboardInterrupt'
    )
    assert interrupted_while_python_starts(through_venv)


def test_an_error_other_than_the_interrupt_is_not_pythons_start_up():
    assert not interrupted_while_python_starts(FATAL_IN_SITE.replace("KeyboardInterrupt", "MemoryError"))
    assert not interrupted_while_python_starts("Serving on 127.0.0.1:8080\nKeyboardInterrupt")
