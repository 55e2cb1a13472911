// The report's stylesheet, inline (no network). Colours carry meaning: green pass, red fail, amber
// finding / incomplete, grey skip; plot classes match the legend printed under each plot.
export const HTML_STYLE =
  `
:root { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2430; background: #f6f7f9; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { margin: 0 0 6px; font-size: 1.7rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #d5d9e0; padding-bottom: 4px; }
h3 { font-size: 1.05rem; } h4 { margin: 10px 0 4px; font-size: .9rem; color: #4a5568; }
.verdict { border-radius: 8px; padding: 14px 18px; color: #fff; }
.verdict.pass { background: #1f7a3d; } .verdict.fail { background: #b42318; } .verdict.incomplete { background: #b76e00; }
.verdict p { margin: 4px 0; } .aborted { font-weight: 600; }
table { border-collapse: collapse; width: 100%; background: #fff; font-size: .88rem; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #e4e7ec; vertical-align: top; }
table.facts { width: auto; margin-top: 12px; } table.parts { width: auto; margin-top: 12px; } table.facts th { color: #4a5568; font-weight: 500; }
td.outcome, .level { font-weight: 600; text-transform: uppercase; font-size: .78rem; }
td.outcome.pass { color: #1f7a3d; } td.outcome.fail { color: #b42318; } td.outcome.finding { color: #b76e00; } td.outcome.skip { color: #6b7280; }
tr.fail { background: #fdecea; } tr.finding { background: #fff6e5; }
.level.MUST { color: #b42318; } .level.SHOULD { color: #b76e00; } .level.OBSERVE { color: #3b5bdb; }
.legend, .note { color: #4a5568; font-size: .85rem; } .spec { color: #4a5568; font-weight: 400; font-size: .85rem; }
pre { background: #0f1720; color: #e6edf3; padding: 8px 10px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break:` +
  ` break-word; font-size: .8rem; max-height: 420px; overflow-y: auto; }
td pre { background: #f1f3f6; color: #1d2430; margin: 0; }
.check-failure { background: #fff; border-left: 4px solid #b42318; padding: 4px 14px 10px; margin: 12px 0; }
.failure + .failure { border-top: 1px dashed #d5d9e0; } .message { font-weight: 600; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
figure.probe { background: #fff; margin: 12px 0; padding: 8px 12px; border-radius: 6px; }
figcaption { font-size: .85rem; color: #4a5568; margin-bottom: 4px; }
svg.plot { max-width: 100%; height: auto; font-size: 10px; fill: #4a5568; }
svg .grid { stroke: #eceff3; } svg .observed { fill: none; stroke: #2563eb; stroke-width: 1.5; }
svg .expected { fill: none; stroke: #16a34a; stroke-width: 1.5; stroke-dasharray: 5 3; }
svg .limit { fill: none; stroke: #9ca3af; stroke-width: 1; } svg .point { fill: #2563eb; }
svg .rejected { stroke: #dc2626; stroke-width: 2; fill: none; } svg .wait { fill: #f59e0b; fill-opacity: .18; } svg .over { fill: #dc2626; fill-opacity: .14; }
svg .quota { stroke: #dc2626; stroke-width: 1.5; stroke-dasharray: 6 3; } svg .day-boundary { stroke: #6b7280; stroke-dasharray: 2 3; }
span.pass { color: #1f7a3d; } span.fail { color: #b42318; }
footer { margin-top: 32px; color: #6b7280; font-size: .8rem; }
`;
