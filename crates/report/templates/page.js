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
    return { el, index, select: el.querySelector(".pane-solver"), solver: null, builtFor: null, tree: null };
  });
  const same = (a, b) => a[0] === b[0] && a[1] === b[1];
  // The board a step stands on: its queens without the square a refusal
  // tested (an odometer keeps that digit in its number; it is no queen).
  const boardOf = (step) => (step.refused ? step.queens.filter((q) => !same(q, step.refused)) : step.queens);
  const attacks = (a, b) => a[0] === b[0] || a[1] === b[1] || Math.abs(a[0] - b[0]) === Math.abs(a[1] - b[1]);
  // A tree walker's boards against three-mask's (the registry's facts,
  // carried in the trace as walk.image): undo takes one of its squares to
  // three-mask's board, redo takes a three-mask square to its board.
  const undo = (image, [f, r], n) => (image === "transposed" ? [r, f] : image === "transposed-mirrored" ? [r, n - 1 - f] : [f, r]);
  const redo = (image, [f, r], n) => (image === "transposed" ? [r, f] : image === "transposed-mirrored" ? [n - 1 - r, f] : [f, r]);
  const imageWords = { same: "three-mask's board", transposed: "three-mask's board transposed (mirrored in the a1 diagonal)", "transposed-mirrored": "three-mask's board given a quarter turn" };
  const depthFirst = (walk) => walk.order !== "breadth-first";

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
  const scrub = $("watch-scrub");
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
  // How the right pane follows the left one at the same node count: on the
  // tree's k-th safe board where both walk that tree in one order (its board
  // turned back into the left pane's orientation where the two draw it
  // differently), by step where the orders differ (at one count they stand
  // on different boards), by each one's own counter where they walk no
  // common tree.
  const alignment = (lead, t) => {
    const a = lead.walk, b = t.walk;
    if (a && b && depthFirst(a) === depthFirst(b)) {
      const turned = a.image !== b.image;
      const turn = turned ? (q) => redo(a.image, undo(b.image, q, t.n), t.n) : null;
      const note = "Aligned on the tree's safe boards: both walk it " + (depthFirst(a) ? "depth-first" : "breadth-first") +
        (turned ? "; " + t.solver + " draws " + imageWords[b.image] + " and " + lead.solver + " draws " + imageWords[a.image] +
          ", so this board is drawn turned back into the left pane's orientation (its own squares are in the step's words)." : ".");
      return { count: (step) => (step.levels ? treeNodes(step) : 0), turn, note };
    }
    if (a && b) {
      const how = (walk) => (depthFirst(walk) ? "depth-first" : "breadth-first, a level at a time");
      return { count: null, turn: null, note: "Not aligned by nodes: " + lead.solver + " meets the tree's boards " + how(a) + " and " +
        t.solver + " " + how(b) + ", so at one node count they stand on different boards; shown at the same step instead." };
    }
    return { count: (step) => step.nodes, turn: null, note: "These two walk no common tree: aligned on each one's own node counter, which counts different things." };
  };
  const stepOf = (pane, t) => {
    const own = Math.min(state.step, t.steps.length - 1);
    const lead = trace(panes[0]);
    if (!byNodes() || pane.index === 0 || !lead) return { index: own, turn: null, note: "" };
    const { count, turn, note } = alignment(lead, t);
    if (!count) return { index: own, turn: null, note };
    const nodes = count(lead.steps[Math.min(state.step, lead.steps.length - 1)]);
    let index = 0;
    if (t.walk && lead.walk) {
      // One tree: the step where it reaches the left pane's board count, so
      // that both stand on the tree's same board when the left one reaches it.
      while (index + 1 < t.steps.length && count(t.steps[index]) < nodes) index += 1;
      const short = count(t.steps[t.steps.length - 1]) < nodes;
      return { index, turn, note: note + (short ? " " + t.solver + "'s walk has ended: it meets fewer of the tree's boards." : "") };
    }
    while (index + 1 < t.steps.length && count(t.steps[index + 1]) <= nodes) index += 1;
    return { index, turn, note };
  };

  // Where the next (dir 1) or previous (dir -1) step with this event is in
  // the left pane's search, or -1: each trace's positions of each event are
  // listed once, then searched by halves.
  const lead = () => trace(panes[0]) || trace(panes[1]);
  function positions(t, event) {
    if (!t.events) {
      t.events = {};
      t.steps.forEach((step, i) => (t.events[step.event] = t.events[step.event] || []).push(i));
    }
    return t.events[event] || [];
  }
  function seek(event, dir) {
    const t = lead();
    if (!t) return -1;
    const list = positions(t, event);
    let lo = 0, hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] <= state.step) lo = mid + 1; else hi = mid;
    }
    // lo: the first position after the current step.
    if (dir > 0) return lo < list.length ? list[lo] : -1;
    const before = list[lo - 1] === state.step ? lo - 2 : lo - 1;
    return before >= 0 ? list[before] : -1;
  }
  const jumps = [["solution", 1], ["solution", -1], ["back", 1], ["back", -1], ["reject", 1], ["reject", -1]]
    .map(([event, dir]) => ({ event, dir, button: $("watch-" + (dir > 0 ? "next-" : "prev-") + event) }));

  // The search tree drawn, at n <= 6, for a depth-first walker: every safe
  // board the whole search reaches is a node under the board it grew from,
  // every refused square a short red stub ending in ×, laid out once per
  // trace; each step only marks what is reached so far, the path from the
  // empty board to the step's board, and the step's node.
  const SVG = "http://www.w3.org/2000/svg";
  function treeOf(t) {
    if (t.tree !== undefined) return t.tree;
    t.tree = null;
    if (t.n > 6 || t.cut || !t.walk || !depthFirst(t.walk)) return null;
    const name = (qs) => qs.map((q) => q.join(",")).join(" ");
    const root = { depth: 0, first: 0, children: [], parent: null };
    const nodes = new Map([["", root]]);
    let count = 0;
    for (const [i, step] of t.steps.entries()) {
      const board = boardOf(step);
      const parentName = step.event === "reject" ? name(board) : name(board.slice(0, -1));
      if (step.event === "reject" && step.refused) {
        const parent = nodes.get(parentName);
        if (!parent) return null;
        parent.children.push({ refusal: true, depth: parent.depth + 1, first: i, parent, children: [] });
      } else if ((step.event === "place" || step.event === "solution") && board.length > 0) {
        let node = nodes.get(name(board));
        if (!node) {
          const parent = nodes.get(parentName);
          if (!parent) return null;
          node = { depth: board.length, first: i, children: [], parent };
          parent.children.push(node);
          nodes.set(name(board), node);
          count += 1;
        }
        if (step.event === "solution") node.solution = true;
      }
    }
    // Truthful or nothing: the nodes drawn are the tree's safe boards.
    const levels = t.steps[t.steps.length - 1].levels || [];
    if (count + 1 !== levels.reduce((a, b) => a + b, 0)) return null;
    let x = 0;
    const place = (node) => {
      if (node.children.length === 0) { node.x = x + (node.refusal ? 0.25 : 0.5); x += node.refusal ? 0.5 : 1; return; }
      node.children.forEach(place);
      node.x = (node.children[0].x + node.children[node.children.length - 1].x) / 2;
    };
    place(root);
    t.tree = { root, nodes, name, width: x };
    return t.tree;
  }
  function drawSearchTree(pane, t, index) {
    const tree = treeOf(t);
    const box = pane.el.querySelector(".tree");
    if (!tree) return false;
    const unit = 11, rise = 24, pad = 8;
    if (pane.tree !== t) {
      const svg = document.createElementNS(SVG, "svg");
      const width = tree.width * unit + 2 * pad, height = t.n * rise + 2 * pad;
      svg.setAttribute("viewBox", "0 0 " + width + " " + height);
      svg.setAttribute("width", String(width));
      svg.setAttribute("height", String(height));
      svg.setAttribute("class", "search-tree");
      svg.setAttribute("aria-hidden", "true");
      const at = (node) => [pad + node.x * unit, pad + node.depth * rise];
      const items = [];
      const add = (tag, attrs, node) => {
        const el = document.createElementNS(SVG, tag);
        for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
        svg.appendChild(el);
        items.push([el, node]);
      };
      const walk = (node) => {
        for (const child of node.children) {
          const [x1, y1] = at(node), [x2, y2] = at(child);
          const end = child.refusal ? [x1 + (x2 - x1) * 0.6, y1 + (y2 - y1) * 0.6] : [x2, y2];
          add("line", { x1, y1, x2: end[0], y2: end[1], class: child.refusal ? "pruned" : "edge" }, child);
          if (child.refusal) add("text", { x: end[0], y: end[1] + 4, class: "pruned-mark", "text-anchor": "middle" }, child);
          walk(child);
        }
      };
      walk(tree.root);
      for (const item of items) if (item[0].tagName === "text") item[0].textContent = "×";
      for (const node of tree.nodes.values()) {
        const [cx, cy] = at(node);
        add("circle", { cx, cy, r: node.solution ? 4.5 : 3, class: node.solution ? "node solution" : "node" }, node);
      }
      const scroller = document.createElement("div");
      scroller.className = "tree-scroll";
      scroller.appendChild(svg);
      const caption = document.createElement("p");
      caption.className = "tree-caption";
      caption.textContent = "the search tree: a dot per safe board (filled: a solution), a red × per refused square; solid: reached so far; the path to this step's board is thick";
      box.replaceChildren(caption, scroller);
      pane.tree = t;
      pane.treeItems = items;
    }
    const step = t.steps[index];
    const here = tree.nodes.get(tree.name(boardOf(step)));
    const path = new Set();
    for (let node = here; node; node = node.parent) path.add(node);
    for (const [el, node] of pane.treeItems) {
      const reached = node.first <= index;
      el.classList.toggle("future", !reached);
      el.classList.toggle("on-path", path.has(node) || (node.refusal && node.first === index));
      el.classList.toggle("here", node === here && el.tagName === "circle");
    }
    const dot = pane.treeItems.find(([el, node]) => node === here && el.tagName === "circle");
    // The current node kept in view, once per frame: reading the scroller's
    // width lays the page out, which on every step of a fast play (or a
    // scrub) would cost far more than drawing the step.
    cancelAnimationFrame(pane.scrolling || 0);
    pane.scrolling = dot && requestAnimationFrame(() => {
      const scroller = box.querySelector(".tree-scroll");
      // The tree may have been redrawn or hidden since.
      if (!scroller || !dot[0].isConnected) return;
      const x = Number(dot[0].getAttribute("cx"));
      if (x < scroller.scrollLeft + 20 || x > scroller.scrollLeft + scroller.clientWidth - 20) scroller.scrollLeft = x - scroller.clientWidth / 2;
    });
    return true;
  }

  // The search tree so far: one row per level (k queens on the board); a
  // faint bar as wide as the whole search's level against its widest, centred
  // so that the picture has the tree's shape, filled as far as the safe
  // boards reached there so far; the level of the board shown is marked.
  function drawTree(pane, t, index) {
    const el = pane.el;
    const step = t.steps[index];
    const box = el.querySelector(".tree");
    const final = t.steps[t.steps.length - 1].levels;
    if (!step.levels && !final) {
      box.replaceChildren();
      box.setAttribute("aria-label", "");
      box.hidden = true;
      pane.tree = null;
      return;
    }
    box.hidden = false;
    const label = "search tree so far, boards by number of queens: " + (step.levels || []).map((c, k) => k + ": " + c).join(", ");
    box.classList.toggle("drawn", treeOf(t) !== null);
    if (drawSearchTree(pane, t, index)) {
      box.setAttribute("aria-label", label);
      return;
    }
    pane.tree = null;
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
    caption.textContent = "the tree so far: safe boards with k queens" + (whole ? " (of the whole search's)" : "") +
      (t.walk && !depthFirst(t.walk) ? "; met breadth-first, a level at a time, so no path to draw" : "");
    box.replaceChildren(caption, ...rows);
    box.setAttribute("aria-label", label);
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
      for (const cell of board.children) cell.classList.remove("queen", "attacked", "conflict", "refused", "attacker");
      el.querySelector(".aligned").textContent = "";
      pane.tree = null;
      board.setAttribute("aria-label", "no recorded search for this solver at n = " + state.n);
      el.querySelector(".event").textContent = waiting(pane) ? "unpacking the trace…" : "no trace";
      el.querySelector(".tree").replaceChildren();
      for (const cls of [".text", ".cut", ".convention", ".nodes", ".solutions"]) el.querySelector(cls).textContent = "";
      el.querySelector(".state tbody").replaceChildren();
      return;
    }
    const { index, turn, note } = stepOf(pane, t);
    el.querySelector(".aligned").textContent = note;
    const step = t.steps[index];
    const drawn = turn || ((q) => q);
    const on = (list) => new Set((list || []).map((q) => square(...drawn(q))));
    const placed = boardOf(step);
    const queens = on(placed);
    const attacked = on(step.attacked);
    // A local search's repair: the queens that share a diagonal with another.
    const conflicting = on(step.conflicting);
    // A refusal: the square tested, and the queens that attack it.
    const refused = on(step.refused ? [step.refused] : []);
    const attackers = on(step.refused ? placed.filter((q) => attacks(q, step.refused)) : []);
    for (const cell of board.children) {
      const name = cell.getAttribute("data-square");
      cell.classList.toggle("queen", queens.has(name));
      cell.classList.toggle("attacked", attacked.has(name));
      cell.classList.toggle("conflict", conflicting.has(name));
      cell.classList.toggle("refused", refused.has(name));
      cell.classList.toggle("attacker", attackers.has(name));
    }
    const names = (set) => (set.size ? Array.from(set).sort().join(" ") : "none");
    board.setAttribute("aria-label", pane.solver + ", n = " + state.n + ", step " + (index + 1) +
      (turn ? " (turned into the left pane's orientation)" : "") +
      ": queens on " + names(queens) + "; taken or attacked: " + names(attacked) +
      (step.conflicting ? "; queens in conflict: " + names(conflicting) : "") +
      (step.refused ? "; refused: " + names(refused) + ", attacked by " + names(attackers) : ""));
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
    drawTree(pane, t, index);
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
    scrub.max = String(total);
    scrub.value = String(state.step + 1);
    scrub.setAttribute("aria-valuetext", "step " + (state.step + 1) + " of " + total);
    for (const jump of jumps) jump.button.disabled = seek(jump.event, jump.dir) < 0;
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
    for (const id of ["watch-first", "watch-back", "watch-play", "watch-forward", "watch-last", "watch-scrub"]) $(id).disabled = true;
    for (const jump of jumps) jump.button.disabled = true;
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
    scrub.addEventListener("input", () => { stop(); go(Number(scrub.value) - 1); });
    for (const jump of jumps) {
      jump.button.addEventListener("click", () => {
        const to = seek(jump.event, jump.dir);
        if (to >= 0) { stop(); go(to); }
      });
    }
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

  // ---- the heatmap: how many solutions put a queen on each square (the
  // report's counts), darker for more, each square's count written on it.
  const heatNs = Object.keys(data.heatmaps || {}).map(Number).sort((a, b) => a - b);
  const heatSelect = $("heat-n");
  function drawHeat() {
    const n = Number(heatSelect.value);
    const counts = data.heatmaps[String(n)];
    const most = Math.max(1, ...counts.flat());
    const total = counts[0].reduce((a, b) => a + b, 0);
    const cells = [];
    for (let rank = n - 1; rank >= 0; rank--) {
      for (let file = 0; file < n; file++) {
        const count = counts[rank][file];
        const cell = document.createElement("div");
        cell.className = "heat-square" + (count / most > 0.55 ? " dark-heat" : "");
        cell.style.backgroundColor = "rgba(11, 92, 173, " + (0.06 + 0.94 * count / most).toFixed(3) + ")";
        cell.setAttribute("data-square", square(file, rank));
        cell.title = square(file, rank) + ": " + count + " of " + total + " solutions";
        cell.textContent = String(count);
        cells.push(cell);
      }
    }
    const heat = $("heat");
    heat.style.gridTemplateColumns = "repeat(" + n + ", 1fr)";
    heat.style.fontSize = (n > 9 ? 0.6 : 0.8) + "rem";
    heat.replaceChildren(...cells);
    heat.setAttribute("aria-label", "n = " + n + ", " + total + " solutions; queens per square, rank " + n + " first: " +
      counts.slice().reverse().map((row, i) => (n - i) + ": " + row.join(" ")).join("; "));
  }
  if (heatNs.length && heatSelect) {
    heatSelect.replaceChildren(...heatNs.map((n) => new Option(String(n), String(n))));
    heatSelect.value = String(heatNs.includes(8) ? 8 : heatNs[0]);
    heatSelect.addEventListener("change", drawHeat);
    drawHeat();
  }

  // For the browser test and for curious readers: where the player is;
  // settled() waits until the panes' traces are inflated and drawn.
  window.queensPage = {
    ready: true,
    settled: () => settling.then(() => true),
    where: () => ({ n: state.n, step: state.step, align: align.value, playing: Boolean(state.timer), solvers: panes.map((p) => p.solver) }),
  };
})();
