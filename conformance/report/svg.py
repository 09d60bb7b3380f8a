"""Inline SVG pictures for the report (no scripts, no external resources).

tt_glyph:  FreeType's and fontvm's hinted outlines of one glyph overlaid on
           the pixel grid of that size; every point marked, the points that
           differ ringed and joined (FreeType position -> fontvm position).
gr_runs:   the glyph run of the reference and of fontvm, one row each, each
           glyph a box at the origin that engine gave it, the first
           differing slot highlighted.
"""

from html import escape

REF_COLOR = "#1f6feb"      # FreeType / reference
FV_COLOR = "#d1242f"       # fontvm
DIFF_COLOR = "#f59e0b"


def _contour_path(pts, on, start, end, sx, sy):
    """SVG path of one TrueType contour (quadratic B-splines: two off-curve
    points in a row imply an on-curve point halfway between them)."""
    n = end - start + 1
    if n <= 0:
        return ""
    idx = list(range(start, end + 1))
    # Start on an on-curve point; if there is none, at the midpoint of the
    # last and first points.
    first_on = next((k for k in range(n) if on[idx[k]]), None)
    if first_on is None:
        a, b = pts[idx[-1]], pts[idx[0]]
        cur = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        order = idx
    else:
        order = idx[first_on:] + idx[:first_on]
        cur = pts[order[0]]
        order = order[1:]
    d = [f"M{sx(cur[0]):.2f} {sy(cur[1]):.2f}"]
    start_pt = cur
    ctrl = None
    for i in order + [None]:
        if i is None:
            p, is_on = start_pt, True
        else:
            p, is_on = pts[i], bool(on[i])
        if is_on:
            if ctrl is None:
                d.append(f"L{sx(p[0]):.2f} {sy(p[1]):.2f}")
            else:
                d.append(f"Q{sx(ctrl[0]):.2f} {sy(ctrl[1]):.2f} {sx(p[0]):.2f} {sy(p[1]):.2f}")
                ctrl = None
        else:
            if ctrl is not None:
                mid = ((ctrl[0] + p[0]) / 2, (ctrl[1] + p[1]) / 2)
                d.append(f"Q{sx(ctrl[0]):.2f} {sy(ctrl[1]):.2f} {sx(mid[0]):.2f} {sy(mid[1]):.2f}")
            ctrl = p
    d.append("Z")
    return "".join(d)


def _outline_path(pts, on, ends, sx, sy):
    out, start = [], 0
    for e in ends:
        e = int(e)
        if e < start or e >= len(pts):
            break
        out.append(_contour_path(pts, on, start, e, sx, sy))
        start = e + 1
    return "".join(out)


def tt_glyph(case, max_px=300):
    """The difference picture of a TrueType case with `detail`, or ""."""
    det = case.get("detail") or {}
    ref = det.get("ref_points") or []
    fv = det.get("fontvm_points") or []
    if not ref and not fv:
        return ""
    ends = det.get("contours") or []
    tags = det.get("tags") or []
    npts = max(len(ref), len(fv))
    on = [bool(int(t) & 1) for t in tags] + [True] * max(0, npts - len(tags))
    allp = ref + fv + [[0, 0]]
    for adv in (case.get("ref_advance"), case.get("fontvm_advance")):
        if isinstance(adv, int):
            allp.append([adv, 0])
    # Pixel bounds (26.6 -> whole pixels), one pixel of margin.
    x0 = min(p[0] for p in allp) // 64 - 1
    x1 = -(-max(p[0] for p in allp) // 64) + 1
    y0 = min(p[1] for p in allp) // 64 - 1
    y1 = -(-max(p[1] for p in allp) // 64) + 1
    wpx, hpx = max(1, x1 - x0), max(1, y1 - y0)
    cell = max(3.0, min(40.0, max_px / max(wpx, hpx)))
    W, H = wpx * cell, hpx * cell

    def sx(x):
        return (x / 64.0 - x0) * cell

    def sy(y):
        return (y1 - y / 64.0) * cell

    s = [f'<svg class="glyph" xmlns="http://www.w3.org/2000/svg" width="{W:.0f}" height="{H:.0f}" '
         f'viewBox="0 0 {W:.1f} {H:.1f}" role="img" aria-label="FreeType and fontvm outlines">']
    # Pixel grid; the baseline and the origin darker.
    grid = []
    for i in range(wpx + 1):
        grid.append(f"M{i * cell:.1f} 0V{H:.1f}")
    for j in range(hpx + 1):
        grid.append(f"M0 {j * cell:.1f}H{W:.1f}")
    s.append(f'<path d="{"".join(grid)}" stroke="#d0d7de" stroke-width="0.6" fill="none"/>')
    s.append(f'<path d="M0 {sy(0):.1f}H{W:.1f}M{sx(0):.1f} 0V{H:.1f}" stroke="#8c959f" stroke-width="1" fill="none"/>')
    for adv, col in ((case.get("ref_advance"), REF_COLOR), (case.get("fontvm_advance"), FV_COLOR)):
        if isinstance(adv, int):
            s.append(f'<path d="M{sx(adv):.1f} 0V{H:.1f}" stroke="{col}" stroke-dasharray="4 3" stroke-width="1"/>')
    if ref:
        s.append(f'<path d="{_outline_path(ref, on, ends, sx, sy)}" fill="{REF_COLOR}" fill-opacity="0.18" '
                 f'stroke="{REF_COLOR}" stroke-width="1.2" fill-rule="nonzero"/>')
    if fv:
        s.append(f'<path d="{_outline_path(fv, on, ends, sx, sy)}" fill="none" stroke="{FV_COLOR}" '
                 f'stroke-width="1.2" stroke-dasharray="5 2"/>')
    r = max(1.2, min(3.0, cell / 6))
    for p, o in zip(ref, on):
        s.append(f'<circle cx="{sx(p[0]):.1f}" cy="{sy(p[1]):.1f}" r="{r:.1f}" '
                 f'fill="{REF_COLOR if o else "#fff"}" stroke="{REF_COLOR}" stroke-width="0.8"/>')
    for p, o in zip(fv, on):
        s.append(f'<rect x="{sx(p[0]) - r * 0.7:.1f}" y="{sy(p[1]) - r * 0.7:.1f}" width="{r * 1.4:.1f}" '
                 f'height="{r * 1.4:.1f}" fill="{FV_COLOR if o else "#fff"}" stroke="{FV_COLOR}" stroke-width="0.8"/>')
    first = (case.get("first_diff") or {}).get("point", -1)
    ndiff = 0
    for k, (a, b) in enumerate(zip(ref, fv)):
        if a[0] == b[0] and a[1] == b[1]:
            continue
        ndiff += 1
        s.append(f'<path class="diffpt" d="M{sx(a[0]):.1f} {sy(a[1]):.1f}L{sx(b[0]):.1f} {sy(b[1]):.1f}" '
                 f'stroke="{DIFF_COLOR}" stroke-width="1.5"/>')
        s.append(f'<circle class="diffpt" cx="{sx(b[0]):.1f}" cy="{sy(b[1]):.1f}" r="{r * 2.6:.1f}" '
                 f'fill="none" stroke="{DIFF_COLOR}" stroke-width="2"/>')
        if k == first:
            s.append(f'<text x="{sx(b[0]) + r * 3:.1f}" y="{sy(b[1]) - r * 3:.1f}" font-size="11" '
                     f'font-family="sans-serif" fill="#6e4a00">p{k}</text>')
    s.append("</svg>")
    return "".join(s)


def _box_widths(glyphs, upem):
    xs = sorted({float(g.get("x", 0)) for g in glyphs})
    out = []
    for g in glyphs:
        x = float(g.get("x", 0))
        nxt = [v for v in xs if v > x]
        if isinstance(g.get("x_advance"), (int, float)) and g["x_advance"] > 0:
            w = float(g["x_advance"])        # HarfBuzz gives the advance
        else:
            w = (nxt[0] - x) if nxt else upem * 0.5
        out.append(max(upem * 0.08, min(w, upem * 1.5)))
    return out


def gr_runs(case, max_w=720):
    """Both glyph runs of a Graphite case with `detail`, or ""."""
    det = case.get("detail") or {}
    ref = det.get("ref_glyphs") or []
    fv = det.get("fontvm_glyphs") or []
    if not ref and not fv:
        return ""
    upem = float(det.get("units_per_em") or 1000)
    rows = [("ref", ref, REF_COLOR), ("fontvm", fv, FV_COLOR)]
    xs = [float(g.get("x", 0)) for _, gs, _ in rows for g in gs]
    ys = [float(g.get("y", 0)) for _, gs, _ in rows for g in gs] + [0.0]
    wmin = min(xs + [0.0])
    span = max(upem, max(xs + [0.0]) + upem * 0.6 - wmin)
    k = (max_w - 80) / span
    box_h = 30.0
    # Rows tall enough for the highest and lowest glyph origins, with
    # vertical offsets drawn at the horizontal scale (capped).
    ky = min(k, 80.0 / max(1.0, max(ys) - min(ys)))
    row_h = box_h + (max(ys) - min(ys)) * ky + 22
    H = row_h * 2 + 12
    W = max_w
    slot = (case.get("first_diff") or {}).get("slot", -1)
    s = [f'<svg class="run" xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H:.0f}" '
         f'viewBox="0 0 {W} {H:.0f}" role="img" aria-label="glyph runs">']
    for r, (label, gs, col) in enumerate(rows):
        top = 4 + r * (row_h + 4)
        base = top + 4 + box_h + max(ys) * ky
        name = "reference" if label == "ref" else "fontvm"
        s.append(f'<text x="2" y="{base - 8:.0f}" font-size="11" font-family="sans-serif" fill="{col}">{name}</text>')
        s.append(f'<path d="M76 {base:.1f}H{W - 2}" stroke="#8c959f" stroke-width="0.8"/>')
        widths = _box_widths(gs, upem)
        for i, (g, w) in enumerate(zip(gs, widths)):
            x = 76 + (float(g.get("x", 0)) - wmin) * k
            y = base - float(g.get("y", 0)) * ky
            bw = max(3.0, w * k - 1)
            hi = i == slot
            s.append(f'<rect x="{x:.1f}" y="{y - box_h:.1f}" width="{bw:.1f}" height="{box_h:.0f}" rx="2" '
                     f'fill="{DIFF_COLOR if hi else col}" fill-opacity="{0.55 if hi else 0.15}" '
                     f'stroke="{col}" stroke-width="{2 if hi else 0.8}"/>')
            if bw > 14:
                s.append(f'<text x="{x + 2:.1f}" y="{y - box_h + 11:.1f}" font-size="9" font-family="monospace">'
                         f'{escape(str(g.get("gid", "?")))}</text>')
    s.append("</svg>")
    return "".join(s)
