#pragma once
// The style every kopt page shares (a loop run's report, a tune's): inline in the page, so that
// it needs nothing from anywhere.

namespace kopt::report {

// Outcome colours are shared by the charts, the table's badges and the legends.
inline constexpr const char* page_css = R"css(
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px auto; max-width: 1200px;
       padding: 0 16px; color: #1d2330; background: #fff; line-height: 1.4; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; } h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #dde1e8; }
h3 { font-size: 1em; margin-bottom: 0.3em; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
pre.diff { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.85em; background: #f6f7fa;
           padding: 8px; overflow-x: auto; } ul.version { margin-top: 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
.facts dt { color: #5b6475; } .facts dd { margin: 0; overflow-wrap: anywhere; }
.headline { font-size: 1.1em; padding: 8px 12px; background: #f3f6fb; border-left: 4px solid #4c72b0; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 0.92em; }
th, td { border-bottom: 1px solid #e4e7ee; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f7fa; font-weight: 600; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.best td { background: #f1f8f1; } .best-mark { font-size: 0.8em; color: #2ca02c; font-weight: 600; }
td.reason { max-width: 360px; overflow-wrap: anywhere; } .files { font-size: 0.85em; }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; color: #fff; font-size: 0.85em; }
.tag { background: #eef1f6; padding: 0 4px; border-radius: 3px; }
.quiet, .memory-note { color: #5b6475; }
svg { display: block; margin: 8px 0; font-size: 12px; fill: #1d2330; max-width: 100%; height: auto; }
svg .grid { stroke: #eceef3; } svg .frame { fill: none; stroke: #9aa2b1; }
svg .tick { fill: #5b6475; } svg .axis-title { font-weight: 600; }
svg .ci { stroke: #1d2330; stroke-width: 1.5; }
svg .point-label { font-size: 11px; fill: #3a4252; }
svg .best-ring { fill: none; stroke: #1d2330; stroke-width: 2; }
svg .missing-column { stroke: #9aa2b1; stroke-dasharray: 4 4; } svg .missing-mark { font-size: 18px; fill: #6a3d9a; }
svg .roof-memory, svg .roof-fp32 { stroke: #1d2330; stroke-width: 2; } svg .roof-tensor { stroke: #1d2330; stroke-width: 2; stroke-dasharray: 6 4; }
svg .roof-label { font-size: 11px; fill: #3a4252; }
.outcome-baseline { fill: #4c72b0; background: #4c72b0; } .outcome-positive { fill: #2ca02c; background: #2ca02c; }
.outcome-negative { fill: #d62728; background: #d62728; } .outcome-neutral { fill: #7f7f7f; background: #7f7f7f; }
.outcome-inconclusive { fill: #e69500; background: #e69500; } .outcome-rejected { fill: #6a3d9a; background: #6a3d9a; }
svg .best-so-far { fill: none; stroke: #2ca02c; stroke-width: 2; } svg .evaluation-passed { fill: #4c72b0; }
svg .evaluation-cached { fill: #9aa2b1; } svg .evaluation-failed { font-size: 14px; fill: #d62728; }
footer { margin-top: 2em; font-size: 0.85em; color: #5b6475; }
)css";

}  // namespace kopt::report
