"""The ROUGE-1.5.5 settings XML is untrusted input: no entity, no deep nesting,
no recursion, peers that are not regular files refused (docs/safety.md)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rouge2.errors import UserError
from rouge2.io.rouge155 import MAX_XML_DEPTH, read_settings

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "samples" / "paper-example"


def settings_xml(peer_root: str, peer: str, head: str = "") -> str:
    return f"""{head}<ROUGE-EVAL version="1.5.5">
<EVAL ID="0">
<MODEL-ROOT>{SAMPLE / 'reference'}</MODEL-ROOT>
<PEER-ROOT>{peer_root}</PEER-ROOT>
<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>
<PEERS><P ID="P">{peer}</P></PEERS>
<MODELS><M ID="0">task1_reference1.txt</M></MODELS>
</EVAL></ROUGE-EVAL>
"""


def rouge155(*argv, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "rouge2", "rouge155", *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_external_entity_cannot_read_a_local_file(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET\n")
    head = (f'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]>\n')
    cfg = tmp_path / "xxe.xml"
    cfg.write_text(settings_xml("&x;", "task1_syssum1.txt", head))
    with pytest.raises(UserError) as exc:
        read_settings(str(cfg))
    assert "document type declaration" in str(exc.value) and "SECRET" not in str(exc.value)
    r = rouge155("-a", str(cfg), cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("rouge2 rouge155: error: ")
    assert "SECRET" not in r.stderr


def test_billion_laughs_fails_at_once(tmp_path):
    decl = ['<!ENTITY l0 "lol">'] + [f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10)]
    head = '<?xml version="1.0"?>\n<!DOCTYPE r [\n' + "\n".join(decl) + "\n]>\n"
    cfg = tmp_path / "lol.xml"
    cfg.write_text(settings_xml("&l9;", "task1_syssum1.txt", head))
    with pytest.raises(UserError, match="document type declaration"):
        read_settings(str(cfg))


def test_a_bare_doctype_is_still_read(tmp_path):
    cfg = tmp_path / "ok.xml"
    cfg.write_text(settings_xml(str(SAMPLE / "system"), "task1_syssum1.txt", "<!DOCTYPE ROUGE-EVAL>\n"))
    st = read_settings(str(cfg))
    assert st.peer_ids == ["P"] and st.evaluations[0].peers == {"P": "task1_syssum1.txt"}


def test_deep_nesting_is_one_line_not_recursion(tmp_path):
    cfg = tmp_path / "deep.xml"
    cfg.write_text("<ROUGE-EVAL>" + "<a>" * 5000 + "</a>" * 5000 + "</ROUGE-EVAL>")
    with pytest.raises(UserError, match=f"nested more than {MAX_XML_DEPTH} deep"):
        read_settings(str(cfg))
    ok = tmp_path / "ok.xml"  # nested just within the bound: read, no RecursionError
    inner = settings_xml(str(SAMPLE / "system"), "task1_syssum1.txt")
    ok.write_text("<w>" * (MAX_XML_DEPTH - 4) + inner + "</w>" * (MAX_XML_DEPTH - 4))
    assert read_settings(str(ok)).peer_ids == ["P"]


def test_walk_order_is_document_order(tmp_path):
    cfg = tmp_path / "order.xml"
    cfg.write_text("""<ROUGE-EVAL><x><EVAL ID="b"><PEERS><P ID="2">f</P></PEERS></EVAL></x>
<EVAL ID="a"><y><PEERS><P ID="1">g</P><P ID="2">h</P></PEERS></y></EVAL>
<EVAL ID="b"><PEERS><P ID="3">i</P></PEERS></EVAL></ROUGE-EVAL>""")
    st = read_settings(str(cfg))
    assert [e.id for e in st.evaluations] == ["b", "a"]
    assert st.peer_ids == ["2", "1", "3"]
    assert st.evaluations[0].peers == {"2": "f", "3": "i"}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_peer_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "peer.fifo"
    os.mkfifo(fifo)
    cfg = tmp_path / "fifo.xml"
    cfg.write_text(settings_xml(str(tmp_path), "peer.fifo"))
    r = rouge155("-a", str(cfg), cwd=tmp_path)  # the timeout fails the test on a hang
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "FIFO" in r.stderr


@pytest.mark.parametrize("peer", ["/dev/zero", "/"])
def test_device_or_folder_peer_is_refused(tmp_path, peer):
    if not os.path.exists(peer):
        pytest.skip(f"no {peer}")
    cfg = tmp_path / "dev.xml"
    cfg.write_text(settings_xml(os.path.dirname(peer) or "/", os.path.basename(peer) or "."))
    r = rouge155("-a", str(cfg), cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1
    assert "regular files only" in r.stderr or "is a folder" in r.stderr


def test_a_late_mistake_prints_no_partial_report(tmp_path):
    # the second evaluation's model is missing: found only after the first is scored
    text = settings_xml(str(SAMPLE / "system"), "task1_syssum1.txt").replace(
        "</ROUGE-EVAL>", f"""<EVAL ID="1"><MODEL-ROOT>{tmp_path}</MODEL-ROOT>
<PEER-ROOT>{SAMPLE / 'system'}</PEER-ROOT><INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>
<PEERS><P ID="Q">task1_syssum2.txt</P></PEERS><MODELS><M ID="0">missing.txt</M></MODELS>
</EVAL></ROUGE-EVAL>""")
    cfg = tmp_path / "late.xml"
    cfg.write_text(text)
    r = rouge155("-a", str(cfg), cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""  # peer P's report was complete, yet not printed
    lines = r.stderr.splitlines()  # the script's warnings, then one error line
    assert all(line.startswith("*ROUGE Warning") for line in lines[:-1])
    assert lines[-1].startswith("rouge2 rouge155: error: ") and "missing.txt" in lines[-1]
