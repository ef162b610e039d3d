//! The page at a phone's width (420 px) and a desktop's (1280 px): nothing
//! sticks out sideways but inside what scrolls on purpose (the tables), each
//! plot fits its column, and the plots' solver names, as the browser really
//! draws them, stay inside their plot and never overlap (the report places
//! them from estimated text widths; this checks the estimate against real
//! glyphs). Screenshots of the plots at both widths go with the others.

use super::cdp::Browser;
use super::{shoot, traces, write_page};

/// Every element whose right edge passes the window's and that no
/// ancestor clips or scrolls: what would make the page scroll sideways.
const STICKING_OUT_JS: &str = "(() => { const width = document.documentElement.clientWidth; const out = []; \
    for (const el of document.body.querySelectorAll('*')) { \
      const r = el.getBoundingClientRect(); if (r.width === 0 || r.right <= width + 0.5) continue; \
      let up = el.parentElement, held = false; \
      while (up && up !== document.body) { if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowX)) { held = true; break; } up = up.parentElement; } \
      if (!held) out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' right edge ' + Math.round(r.right)); } \
    return out; })()";

/// For each plot: its width on the page and, per pair of its solver names
/// whose drawn boxes overlap or per name outside the plot, one line.
const LABELS_JS: &str = "Array.from(document.querySelectorAll('svg.plot')).map((svg) => { \
    const view = svg.viewBox.baseVal; const bad = []; \
    const boxes = Array.from(svg.querySelectorAll('.label text')).map((t) => [t.textContent, t.getBBox()]); \
    for (const [name, b] of boxes) if (b.x < 0 || b.y < 0 || b.x + b.width > view.width || b.y + b.height > view.height) bad.push(name + ' outside'); \
    boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => { \
      if (p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height) bad.push(a + ' overlaps ' + b); })); \
    const scale = svg.getBoundingClientRect().width / view.width; \
    const smallest = Math.min(...Array.from(svg.querySelectorAll('text')).map((t) => parseFloat(getComputedStyle(t).fontSize) * scale)); \
    return { id: svg.id, width: svg.getBoundingClientRect().width, labels: boxes.length, bad, smallest }; })";

/// The captions cut off: wider than what their table (a box that scrolls
/// sideways) shows, or than the window.
const CAPTIONS_JS: &str = "Array.from(document.querySelectorAll('caption')).filter((c) => { \
    const r = c.getBoundingClientRect(); if (r.width === 0) return false; \
    const t = c.closest('table').getBoundingClientRect(); \
    return r.right > Math.min(t.right, document.documentElement.clientWidth) + 1; }).map((c) => c.textContent.slice(0, 40))";

#[test]
#[ignore = "drives headless Chromium: scripts/browser-test runs it (CI does)"]
fn the_page_fits_a_phone_and_its_plot_names_never_overlap() {
    let dir = tempfile::tempdir().unwrap();
    let page = write_page(dir.path(), &traces());
    for width in [420u32, 1280] {
        let mut browser = Browser::launch(width, 900).unwrap();
        browser.open(&page).unwrap();
        let sticking_out = browser.evaluate(STICKING_OUT_JS).unwrap();
        assert_eq!(
            sticking_out,
            serde_json::json!([]),
            "{width} px: sticks out sideways"
        );
        let scroll_width = browser
            .evaluate("document.documentElement.scrollWidth")
            .unwrap();
        assert!(
            scroll_width.as_f64().unwrap() <= f64::from(width),
            "{width} px: the page is {scroll_width} px wide"
        );
        let plots = browser.evaluate(LABELS_JS).unwrap();
        let plots = plots.as_array().unwrap();
        assert!(!plots.is_empty(), "no plot on the page");
        for plot in plots {
            // At a phone's width a plot scrolls sideways in its figure, at
            // a size whose labels stay readable.
            assert!(
                width < 600 || plot["width"].as_f64().unwrap() <= f64::from(width),
                "{width} px: {plot}"
            );
            assert!(
                plot["smallest"].as_f64().unwrap() >= 10.0,
                "{width} px: a label drawn under 10 px: {plot}"
            );
            assert!(plot["labels"].as_u64().unwrap() > 0, "{plot}");
            assert_eq!(plot["bad"], serde_json::json!([]), "{width} px: {plot}");
        }
        let cut = browser.evaluate(CAPTIONS_JS).unwrap();
        assert_eq!(cut, serde_json::json!([]), "{width} px: captions cut");
        shoot(&mut browser, &format!("5-plots-{width}px.png"), "#plots");
        shoot(
            &mut browser,
            &format!("5-summary-{width}px.png"),
            "#summary",
        );
        let problems = browser.problems();
        assert!(problems.is_empty(), "{width} px: {problems:?}");
    }
}
