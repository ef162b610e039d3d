// The page's behaviour: sortable tables, solvers switched on and off in the
// plots, and the trace player. Hand-written, no library, no network: the
// data is the JSON element #queens-data, written by `queens report`.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("queens-data").textContent);

  // ---- sortable tables: a header button sorts by its column's data-sort,
  // numerically when every value is a number, again to reverse.
  for (const table of document.querySelectorAll("table.sortable")) {
    const heads = Array.from(table.querySelectorAll("thead th"));
    heads.forEach((th, column) => {
      th.querySelector("button").addEventListener("click", () => {
        const ascending = th.getAttribute("aria-sort") !== "ascending";
        heads.forEach((other) => other.setAttribute("aria-sort", "none"));
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const body = table.tBodies[0];
        const key = (row) => {
          const cell = row.children[column];
          return cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent;
        };
        const rows = Array.from(body.rows);
        const numeric = rows.every((row) => key(row) === "" || !isNaN(Number(key(row))));
        rows.sort((a, b) => {
          const x = key(a), y = key(b);
          // Empty cells (no value) go last whichever way the column is sorted.
          if (x === "" || y === "") return (x === "") - (y === "");
          const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
          return ascending ? order : -order;
        });
        rows.forEach((row) => body.appendChild(row));
      });
    });
  }

  // ---- plots: one checkbox per solver switches its line in every plot.
  for (const box of document.querySelectorAll(".legend input[data-solver]")) {
    box.addEventListener("change", () => {
      const id = box.getAttribute("data-solver");
      for (const group of document.querySelectorAll(".plot [data-solver]")) {
        if (group.getAttribute("data-solver") === id) group.toggleAttribute("hidden", !box.checked);
      }
    });
  }

  // ---- the player.
  const solvers = data.solvers.filter((s) => Object.keys(s.traces).length > 0);
  const byId = new Map(data.solvers.map((s) => [s.id, s]));
  const ns = Array.from(new Set(solvers.flatMap((s) => Object.keys(s.traces).map(Number)))).sort((a, b) => a - b);
  const $ = (id) => document.getElementById(id);
  const nSelect = $("watch-n");
  const playButton = $("watch-play");
  const speed = $("watch-speed");
  const state = { n: ns.includes(5) ? 5 : ns[0], step: 0, timer: null };
  const files = "abcdefghijklmnopqrstuvwxyz";
  const square = (file, rank) => files[file] + String(rank + 1);
  const panes = [0, 1].map((index) => {
    const el = $("pane-" + index);
    return { el, index, select: el.querySelector(".pane-solver"), solver: null, builtFor: null };
  });

  // Each trace is packed (its JSON raw-deflated, in base64: see the report's
  // Trace::packed) and inflated by the browser the first time it is shown.
  const key = (id, n) => id + " " + n;
  const inflated = new Map();
  const loading = new Map();
  async function inflate(packed) {
    const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return JSON.parse(await new Response(stream).text());
  }
  const load = (id, n) => {
    const k = key(id, n);
    if (!loading.has(k)) {
      const solver = byId.get(id);
      const packed = solver ? solver.traces[String(n)] : null;
      loading.set(k, packed ? inflate(packed).then((t) => { inflated.set(k, t); }) : Promise.resolve());
    }
    return loading.get(k);
  };
  // The panes' traces inflated, then drawn: every change of n or solver.
  let settling = Promise.resolve();
  const refresh = () => {
    settling = Promise.all(panes.map((p) => load(p.solver, state.n))).then(render);
    return settling;
  };
  const trace = (pane) => inflated.get(key(pane.solver, state.n)) || null;
  const waiting = (pane) => !trace(pane) && Boolean(byId.get(pane.solver) && byId.get(pane.solver).traces[String(state.n)]);
  const align = $("watch-align");
  // By steps: both panes at the same step number. By nodes: the left pane
  // leads and the right one shows its last step with no more nodes, so that
  // two solvers walking one tree stay on the same node at their own cost.
  // Where both walk the tree of safe boards, a node is one of its boards
  // (the levels' sum: the same count for both, whatever each solver's own
  // counter also counts), else each solver's own counter.
  const byNodes = () => align.value === "nodes";
  const treeNodes = (step) => step.levels.reduce((a, b) => a + b, 0);
  const longest = () => {
    if (byNodes() && trace(panes[0])) return trace(panes[0]).steps.length;
    return Math.max(1, ...panes.map((p) => (trace(p) ? trace(p).steps.length : 1)));
  };
  const stepOf = (pane, t) => {
    const own = Math.min(state.step, t.steps.length - 1);
    const lead = trace(panes[0]);
    if (!byNodes() || pane.index === 0 || !lead) return own;
    const both = lead.steps[lead.steps.length - 1].levels && t.steps[t.steps.length - 1].levels;
    const count = both ? (step) => (step.levels ? treeNodes(step) : 0) : (step) => step.nodes;
    const nodes = count(lead.steps[Math.min(state.step, lead.steps.length - 1)]);
    let index = 0;
    while (index + 1 < t.steps.length && count(t.steps[index + 1]) <= nodes) index += 1;
    return index;
  };

  // The search tree so far: one row per level (k queens on the board); a
  // faint bar as wide as the whole search's level against its widest, centred
  // so that the picture has the tree's shape, filled as far as the safe
  // boards reached there so far; the level of the board shown is marked.
  function drawTree(el, t, index) {
    const step = t.steps[index];
    const box = el.querySelector(".tree");
    const final = t.steps[t.steps.length - 1].levels;
    if (!step.levels && !final) {
      box.replaceChildren();
      box.setAttribute("aria-label", "");
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const levels = step.levels || [];
    const whole = t.cut ? null : final;
    const widest = Math.max(1, ...(whole || levels));
    const depth = step.queens.length;
    const rows = [];
    for (let k = 0; k <= t.n; k++) {
      const count = levels[k] || 0;
      const row = document.createElement("div");
      row.className = "level" + (k === depth && index !== t.steps.length - 1 ? " here" : "");
      const label = document.createElement("span");
      label.className = "k";
      label.textContent = String(k);
      const track = document.createElement("span");
      track.className = "track";
      // The whole search's level, faint, filled as far as reached so far.
      const ghost = document.createElement("span");
      ghost.className = "whole";
      const all = whole ? whole[k] || 0 : count;
      ghost.style.width = (100 * all / widest).toFixed(1) + "%";
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = all ? (100 * count / all).toFixed(1) + "%" : "0";
      ghost.appendChild(bar);
      track.appendChild(ghost);
      const figure = document.createElement("span");
      figure.className = "count";
      figure.textContent = whole ? count + "/" + (whole[k] || 0) : String(count);
      row.append(label, track, figure);
      rows.push(row);
    }
    const caption = document.createElement("p");
    caption.className = "tree-caption";
    caption.textContent = "the tree so far: safe boards with k queens" + (whole ? " (of the whole search's)" : "");
    box.replaceChildren(caption, ...rows);
    box.setAttribute("aria-label", "search tree so far, boards by number of queens: " +
      levels.map((c, k) => k + ": " + c).join(", "));
  }

  function fillSolvers() {
    for (const pane of panes) {
      const here = solvers.filter((s) => s.traces[String(state.n)]);
      pane.select.replaceChildren(...here.map((s) => new Option(s.id, s.id)));
      if (!here.some((s) => s.id === pane.solver)) {
        // Defaults: two solvers that walk one tree at different costs, if present.
        const wanted = pane.index === 0 ? ["three-mask", "textbook"] : ["textbook", "base-counting"];
        const other = panes[1 - pane.index].solver;
        const pick = wanted.find((id) => here.some((s) => s.id === id) && id !== other)
          || (here.find((s) => s.id !== other) || here[0] || {}).id || null;
        pane.solver = pick;
      }
      pane.select.value = pane.solver || "";
    }
  }

  function buildBoard(pane, n) {
    const board = pane.el.querySelector(".board");
    board.style.gridTemplateColumns = "repeat(" + n + ", 1fr)";
    const squares = [];
    for (let rank = n - 1; rank >= 0; rank--) {
      for (let file = 0; file < n; file++) {
        const cell = document.createElement("div");
        cell.className = "square " + ((file + rank) % 2 === 0 ? "dark" : "light");
        cell.setAttribute("data-square", square(file, rank));
        if (file === 0) {
          const label = document.createElement("span");
          label.className = "rank-label";
          label.textContent = String(rank + 1);
          cell.appendChild(label);
        }
        if (rank === 0) {
          const label = document.createElement("span");
          label.className = "file-label";
          label.textContent = files[file];
          cell.appendChild(label);
        }
        squares.push(cell);
      }
    }
    board.replaceChildren(...squares);
    pane.builtFor = n;
  }

  function renderPane(pane) {
    const el = pane.el;
    const t = trace(pane);
    if (pane.builtFor !== state.n) buildBoard(pane, state.n);
    const board = el.querySelector(".board");
    const solver = byId.get(pane.solver);
    const measured = solver ? solver.measured[String(state.n)] : null;
    el.querySelector(".measured").textContent = measured || (solver ? "not measured at this n in the records this page was made from" : "");
    if (!t) {
      for (const cell of board.children) cell.classList.remove("queen", "attacked", "conflict");
      board.setAttribute("aria-label", "no recorded search for this solver at n = " + state.n);
      el.querySelector(".event").textContent = waiting(pane) ? "unpacking the trace…" : "no trace";
      el.querySelector(".tree").replaceChildren();
      for (const cls of [".text", ".cut", ".convention", ".nodes", ".solutions"]) el.querySelector(cls).textContent = "";
      el.querySelector(".state tbody").replaceChildren();
      return;
    }
    const index = stepOf(pane, t);
    const step = t.steps[index];
    const queens = new Set(step.queens.map(([f, r]) => square(f, r)));
    const attacked = new Set((step.attacked || []).map(([f, r]) => square(f, r)));
    // A local search's repair: the queens that share a diagonal with another.
    const conflicting = new Set((step.conflicting || []).map(([f, r]) => square(f, r)));
    for (const cell of board.children) {
      const name = cell.getAttribute("data-square");
      cell.classList.toggle("queen", queens.has(name));
      cell.classList.toggle("attacked", attacked.has(name));
      cell.classList.toggle("conflict", conflicting.has(name));
    }
    const names = (set) => (set.size ? Array.from(set).sort().join(" ") : "none");
    board.setAttribute("aria-label", pane.solver + ", n = " + state.n + ", step " + (index + 1) +
      ": queens on " + names(queens) + "; taken or attacked: " + names(attacked) +
      (step.conflicting ? "; queens in conflict: " + names(conflicting) : ""));
    el.querySelector(".event").textContent = "step " + (index + 1) + " of " + t.steps.length + ": " + step.event;
    el.querySelector(".text").textContent = step.text;
    // A repair's counter is the swaps it tried, and it seeks one board.
    const repair = step.conflicts !== undefined;
    el.querySelector(".nodes").textContent = (repair ? "swaps tried so far: " : "nodes so far: ") + step.nodes;
    el.querySelector(".solutions").textContent = repair ? "conflicts: " + step.conflicts : "solutions so far: " + step.solutions;
    const rows = step.state.map(([name, value]) => {
      const row = document.createElement("tr");
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = name;
      const td = document.createElement("td");
      td.textContent = value;
      row.append(th, td);
      return row;
    });
    el.querySelector(".state tbody").replaceChildren(...rows);
    drawTree(el, t, index);
    let end = t.cut
      ? "This trace keeps the first " + t.steps.length + " steps; the search goes on after them."
      : "The whole search: " + t.steps.length + " steps.";
    if (index === t.steps.length - 1) {
      end = t.cut
        ? "The trace was cut here (the page keeps at most its first steps); the search goes on."
        : repair
          ? "Repaired: no conflict left, after " + t.nodes + " swaps tried."
          : "Search over: " + t.nodes + " nodes, " + t.solutions + " solutions in all.";
    }
    el.querySelector(".cut").textContent = end;
    el.querySelector(".convention").textContent = t.convention || "";
    $("watch-legend").textContent = t.legend;
  }

  function render() {
    const total = longest();
    state.step = Math.max(0, Math.min(state.step, total - 1));
    panes.forEach(renderPane);
    $("watch-step").textContent = "step " + (state.step + 1) + " of " + total;
    playButton.textContent = state.timer ? "⏸ pause" : "▶ play";
    playButton.setAttribute("aria-pressed", state.timer ? "true" : "false");
  }

  function stop() {
    if (state.timer) clearInterval(state.timer);
    state.timer = null;
  }
  function go(step) {
    state.step = step;
    render();
  }
  function play() {
    if (state.timer) { stop(); render(); return; }
    if (state.step >= longest() - 1) state.step = 0;
    state.timer = setInterval(() => {
      if (state.step >= longest() - 1) stop();
      else state.step += 1;
      render();
    }, 1000 / Number(speed.value));
    render();
  }
  function setSpeed(value) {
    speed.value = String(Math.max(1, Math.min(30, value)));
    $("watch-speed-value").textContent = speed.value;
    if (state.timer) { stop(); play(); }
  }

  nSelect.replaceChildren(...ns.map((n) => new Option(String(n), String(n))));
  if (ns.length === 0) {
    $("watch-step").textContent = "no traces were recorded for this page";
    for (const id of ["watch-first", "watch-back", "watch-play", "watch-forward", "watch-last"]) $(id).disabled = true;
  } else {
    nSelect.value = String(state.n);
    nSelect.addEventListener("change", () => { stop(); state.n = Number(nSelect.value); state.step = 0; fillSolvers(); render(); refresh(); });
    for (const pane of panes) {
      pane.select.addEventListener("change", () => { pane.solver = pane.select.value; render(); refresh(); });
    }
    $("watch-first").addEventListener("click", () => { stop(); go(0); });
    $("watch-back").addEventListener("click", () => { stop(); go(state.step - 1); });
    $("watch-forward").addEventListener("click", () => { stop(); go(state.step + 1); });
    $("watch-last").addEventListener("click", () => { stop(); go(longest() - 1); });
    playButton.addEventListener("click", play);
    speed.addEventListener("input", () => setSpeed(Number(speed.value)));
    align.addEventListener("change", () => { stop(); render(); });
    for (const link of document.querySelectorAll("a[data-watch]")) {
      link.addEventListener("click", () => {
        const id = link.getAttribute("data-watch");
        const solver = byId.get(id);
        if (!solver || !solver.traces[String(state.n)]) return;
        panes[0].solver = id;
        panes[0].select.value = id;
        render();
        refresh();
      });
    }
    document.addEventListener("keydown", (event) => {
      // Only while the player is in view, so that Space still scrolls the
      // rest of the page.
      const box = $("watch").getBoundingClientRect();
      const inPlayer = event.target.closest ? event.target.closest("#watch") : null;
      // Keys on another control (a link, a summary) are that control's.
      const onPage = event.target === document.body || event.target === document.documentElement;
      if (!inPlayer && !(onPage && box.top < window.innerHeight && box.bottom > 0)) return;
      const tag = event.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (tag === "BUTTON" && (event.key === " " || event.key === "Enter")) return;
      const actions = {
        " ": play,
        ArrowRight: () => { stop(); go(state.step + 1); },
        ArrowLeft: () => { stop(); go(state.step - 1); },
        Home: () => { stop(); go(0); },
        End: () => { stop(); go(longest() - 1); },
        "+": () => setSpeed(Number(speed.value) + 1),
        "=": () => setSpeed(Number(speed.value) + 1),
        "-": () => setSpeed(Number(speed.value) - 1),
      };
      const action = actions[event.key];
      if (action) { event.preventDefault(); action(); }
    });
    fillSolvers();
    render();
    refresh();
  }

  // For the browser test and for curious readers: where the player is;
  // settled() waits until the panes' traces are inflated and drawn.
  window.queensPage = {
    ready: true,
    settled: () => settling.then(() => true),
    where: () => ({ n: state.n, step: state.step, align: align.value, playing: Boolean(state.timer), solvers: panes.map((p) => p.solver) }),
  };
})();
