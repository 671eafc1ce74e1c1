// A request's process drawn by the bpmn-js viewer (pinned in package.json), with its done, current and next
// steps marked, and the same as a list of steps underneath (what the chat's /process prints).
import "bpmn-js/dist/assets/diagram-js.css";
import "bpmn-js/dist/assets/bpmn-js.css";

import Viewer from "bpmn-js/lib/Viewer";
import { useEffect, useRef, useState } from "react";

import type { DiagramMarks } from "./api";
import type { Words } from "./i18n";

type Canvas = {
  zoom: (level: "fit-viewport", center?: "auto") => void;
  addMarker: (element: string, marker: string) => void;
};

export function ProcessDiagram(props: { xml: string | undefined; marks: DiagramMarks; words: Words }) {
  const { xml, marks, words: w } = props;
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "error">("loading");
  const [error, setError] = useState("");

  useEffect(() => {
    if (!container.current || !xml) return;
    const viewer = new Viewer({ container: container.current });
    let live = true;
    viewer.importXML(xml).then(
      () => {
        if (!live) return;
        const canvas = viewer.get<Canvas>("canvas");
        for (const [marker, ids] of [["done", marks.done], ["next", marks.next], ["current", marks.current]] as const) {
          for (const id of ids) canvas.addMarker(id, `fa-${marker}`);
        }
        canvas.zoom("fit-viewport", "auto");
        setState("ready");
      },
      (e: unknown) => {
        if (!live) return;
        setError(String((e as Error)?.message ?? e));
        setState("error");
      },
    );
    return () => {
      live = false;
      viewer.destroy();
    };
  }, [xml, marks]);

  return (
    <div className="diagram" data-testid="diagram" data-state={xml ? state : "no-xml"}>
      <div className="diagram-canvas" ref={container} />
      {state === "error" && <p className="error">{error}</p>}
      <p className="legend">
        <span className="mark done">{w.markDone}</span> <span className="mark current">{w.markCurrent}</span>{" "}
        <span className="mark next">{w.markNext}</span>
      </p>
    </div>
  );
}
