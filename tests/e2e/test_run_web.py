"""`./run web --port P` as a person starts it: the page's address, with that port, after the server's own banner."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.langgraph_server import server_env
from tests.support.net import free_port, stop_process_group

ROOT = Path(__file__).resolve().parents[2]
STARTUP_S = 180


def test_run_web_prints_the_pages_address_with_its_port_after_the_servers_banner(tmp_path: Path) -> None:
    port = free_port()
    with ScriptedOpenAIServer(api_key="sk-test") as model:
        env = server_env(OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="sk-test", FLOWAGENT_MODEL="scripted",
                         FLOWAGENT_DB=str(tmp_path / "workflow.db"), FLOWAGENT_AUTH_SECRET="s" * 48)
        log = tmp_path / "web.log"
        with log.open("wb") as out:
            process = subprocess.Popen(["./run", "web", "--port", str(port)], cwd=ROOT, env=env, stdout=out,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            page = f"==> the page: http://127.0.0.1:{port}/flowagent/"
            deadline = time.monotonic() + STARTUP_S
            while page not in log.read_text(errors="replace") and time.monotonic() < deadline:
                assert process.poll() is None, log.read_text(errors="replace")[-3000:]
                time.sleep(0.5)
            text = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(errors="replace"))
            assert page in text, text[-3000:]
            assert text.index("API: http") < text.index(page), text[-3000:]  # after the server's banner
        finally:
            stop_process_group(process)
