"""Inline SVG pictures for the report (no scripts, no external resources).

tt_glyph:  FreeType's and fontvm's hinted outlines of one glyph overlaid on
           the pixel grid of that size; every point marked, the points that
           differ ringed and joined (FreeType position -> fontvm position).
tt_raster: both outlines rasterised at the size (pixel coverage) and a
           difference map, beside tt_glyph.
gr_runs:   the glyph run of the reference and of fontvm, one row each, each
           glyph a box at the origin that engine gave it, the first
           differing slot highlighted.
gr_overlay: both runs drawn with the font's real glyph outlines
           (outlines.py), overlaid at the positions each engine gave, the
           glyphs that differ (id or position) marked.
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


def _differing_slots(ref, fv):
    out = set()
    for i in range(max(len(ref), len(fv))):
        a = ref[i] if i < len(ref) else None
        b = fv[i] if i < len(fv) else None
        if a is None or b is None or any(a.get(k) != b.get(k) for k in ("gid", "x", "y")):
            out.add(i)
    return out


def gr_overlay(case, outline, max_w=720, max_h=170):
    """Both glyph runs of a Graphite case with `detail` drawn with real
    outlines, overlaid: the reference filled, fontvm outlined, each glyph at
    the origin its engine gave it; the slots whose glyph id or position
    differ marked below the baseline.  `outline(font, gid)` gives a glyph's
    SVG path in font units (None: unknown).  "" when there is no detail or
    an outline is unknown (the caller then draws boxes)."""
    det = case.get("detail") or {}
    ref = det.get("ref_glyphs") or []
    fv = det.get("fontvm_glyphs") or []
    font = case.get("font")
    if (not ref and not fv) or not font:
        return ""
    paths = {}
    for g in ref + fv:
        gid = g.get("gid")
        if gid not in paths:
            d = outline(font, gid)
            if d is None:
                return ""
            paths[gid] = d
    upem = float(det.get("units_per_em") or 1000)
    xs = [float(g.get("x", 0)) for g in ref + fv]
    ys = [float(g.get("y", 0)) for g in ref + fv] + [0.0]
    wmin = min(xs + [0.0]) - upem * 0.1
    span = max(upem, max(xs + [0.0]) + upem * 1.1 - wmin)
    top_u, bot_u = max(ys) + upem * 1.0, min(ys) - upem * 0.35
    k = min((max_w - 8) / span, (max_h - 26) / (top_u - bot_u))
    W = span * k + 8
    base = 4 + top_u * k
    H = base - bot_u * k + 22
    diff = _differing_slots(ref, fv)

    def gx(x):
        return 4 + (x - wmin) * k

    s = [f'<svg class="run outline" xmlns="http://www.w3.org/2000/svg" width="{W:.0f}" height="{H:.0f}" '
         f'viewBox="0 0 {W:.1f} {H:.1f}" role="img" aria-label="glyph runs drawn with the font outlines">']
    s.append(f'<path d="M0 {base:.1f}H{W:.1f}" stroke="#8c959f" stroke-width="0.8"/>')
    for i in sorted(diff):
        for gs, col in ((ref, REF_COLOR), (fv, FV_COLOR)):
            if i < len(gs):
                x = gx(float(gs[i].get("x", 0)))
                s.append(f'<rect class="diffglyph" x="{x:.1f}" y="{base + 3:.1f}" width="{max(4.0, upem * 0.5 * k):.1f}" '
                         f'height="5" fill="{DIFF_COLOR}" stroke="{col}" stroke-width="0.8"/>')
        g = (ref[i] if i < len(ref) else fv[i])
        s.append(f'<text x="{gx(float(g.get("x", 0))):.1f}" y="{base + 19:.1f}" font-size="9" '
                 f'font-family="monospace" fill="#6e4a00">slot {i}</text>')
    for gs, col, style in ((ref, REF_COLOR, f'fill="{REF_COLOR}" fill-opacity="0.28" stroke="none"'),
                           (fv, FV_COLOR, f'fill="none" stroke="{FV_COLOR}" stroke-width="1.1" '
                                          f'vector-effect="non-scaling-stroke"')):
        for i, g in enumerate(gs):
            d = paths[g.get("gid")]
            if not d:
                continue
            x, y = gx(float(g.get("x", 0))), base - float(g.get("y", 0)) * k
            hi = ' class="diffglyph-outline"' if i in diff else ""
            s.append(f'<path{hi} transform="translate({x:.2f} {y:.2f}) scale({k:.5f} {-k:.5f})" d="{d}" {style}/>')
    s.append(f'<text x="4" y="12" font-size="10" font-family="sans-serif"><tspan fill="{REF_COLOR}">reference '
             f'(filled)</tspan> <tspan fill="{FV_COLOR}">fontvm (outlined)</tspan></text>')
    s.append("</svg>")
    return "".join(s)


# --- rasterised at the size --------------------------------------------------

def _flatten(pts, on, ends, steps=6):
    """The outline's contours as closed polylines (26.6 -> pixels), each
    quadratic arc cut into `steps` lines."""
    polys, start = [], 0
    for e in ends:
        e = int(e)
        if e < start or e >= len(pts):
            break
        idx = list(range(start, e + 1))
        start = e + 1
        n = len(idx)
        # On-curve points, implied midpoints added: a sequence of
        # (point, on) with no two off-curve points in a row.
        seq = []
        for k in range(n):
            p, o = pts[idx[k]], bool(on[idx[k]])
            q, qo = pts[idx[(k + 1) % n]], bool(on[idx[(k + 1) % n]])
            seq.append((p, o))
            if not o and not qo:
                seq.append((((p[0] + q[0]) / 2, (p[1] + q[1]) / 2), True))
        first = next((k for k, (_, o) in enumerate(seq) if o), None)
        if first is None:
            continue
        seq = seq[first:] + seq[:first]
        poly, cur, ctrl = [], seq[0][0], None
        poly.append(cur)
        for p, o in seq[1:] + [seq[0]]:
            if not o:
                ctrl = p
                continue
            if ctrl is None:
                poly.append(p)
            else:
                for t in range(1, steps + 1):
                    u = t / steps
                    a = (1 - u) * (1 - u)
                    b = 2 * u * (1 - u)
                    c = u * u
                    poly.append((a * cur[0] + b * ctrl[0] + c * p[0], a * cur[1] + b * ctrl[1] + c * p[1]))
                ctrl = None
            cur = p
        polys.append([(x / 64.0, y / 64.0) for x, y in poly])
    return polys


def _coverage(polys, x0, y0, w, h, ss=4):
    """Pixel coverage (0..1) of the nonzero-filled polygons over the grid
    [x0, x0+w) x [y0, y0+h) (pixels, y up), ss x ss samples per pixel."""
    edges = []
    for poly in polys:
        for i in range(len(poly) - 1):
            (ax, ay), (bx, by) = poly[i], poly[i + 1]
            if ay != by:
                edges.append((ax, ay, bx, by, 1 if by > ay else -1))
    cov = [[0.0] * w for _ in range(h)]
    step = 1.0 / ss
    for row in range(h * ss):
        y = y0 + (row + 0.5) * step
        xs = []
        for ax, ay, bx, by, d in edges:
            if (ay <= y < by) or (by <= y < ay):
                xs.append((ax + (y - ay) * (bx - ax) / (by - ay), d))
        if not xs:
            continue
        xs.sort()
        wind = 0
        py = h - 1 - row // ss
        for k in range(len(xs) - 1):
            wind += xs[k][1]
            if wind == 0:
                continue
            a, b = xs[k][0], xs[k + 1][0]
            for col in range(w * ss):
                x = x0 + (col + 0.5) * step
                if a <= x < b:
                    cov[py][col // ss] += 1.0 / (ss * ss)
    return cov


def tt_raster(case, cell=None, max_cells=64):
    """FreeType's and fontvm's outlines of a TrueType case with `detail`
    rasterised at the size (coverage by 4x4 samples per pixel, nonzero
    fill), side by side with a difference map: red where fontvm covers
    more, blue where FreeType does.  "" without detail or when too big."""
    det = case.get("detail") or {}
    ref = det.get("ref_points") or []
    fv = det.get("fontvm_points") or []
    if not ref or not fv:
        return ""
    ends = det.get("contours") or []
    tags = det.get("tags") or []
    on = [bool(int(t) & 1) for t in tags] + [True] * max(0, max(len(ref), len(fv)) - len(tags))
    allp = ref + fv
    x0 = min(p[0] for p in allp) // 64 - 1
    y0 = min(p[1] for p in allp) // 64 - 1
    w = -(-max(p[0] for p in allp) // 64) + 1 - x0
    h = -(-max(p[1] for p in allp) // 64) + 1 - y0
    if w > max_cells or h > max_cells or w <= 0 or h <= 0:
        return ""
    if cell is None:
        cell = max(3, min(10, 180 // max(w, h)))
    a = _coverage(_flatten(ref, on, ends), x0, y0, w, h)
    b = _coverage(_flatten(fv, on, ends), x0, y0, w, h)
    gap = 14
    W, H = 3 * w * cell + 2 * gap, h * cell + 16
    s = [f'<svg class="raster" xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         f'viewBox="0 0 {W} {H}" role="img" aria-label="rasterised at the size: FreeType, fontvm, difference">']
    ndiff = 0
    for panel, label in enumerate(("FreeType", "fontvm", "difference")):
        ox = panel * (w * cell + gap)
        s.append(f'<text x="{ox}" y="10" font-size="10" font-family="sans-serif">{label}</text>')
        s.append(f'<rect x="{ox}" y="14" width="{w * cell}" height="{h * cell}" fill="#fff" stroke="#d0d7de"/>')
        for j in range(h):
            for i in range(w):
                if panel < 2:
                    c = (a, b)[panel][j][i]
                    if c <= 0.0:
                        continue
                    v = int(255 * (1 - min(1.0, c)))
                    fill = f"#{v:02x}{v:02x}{v:02x}"
                else:
                    d = b[j][i] - a[j][i]
                    if abs(d) < 1e-9:
                        continue
                    ndiff += 1
                    t = int(255 * (1 - min(1.0, abs(d))))
                    fill = f"#ff{t:02x}{t:02x}" if d > 0 else f"#{t:02x}{t:02x}ff"
                cls = ' class="rdiff"' if panel == 2 else ""
                s.append(f'<rect{cls} x="{ox + i * cell}" y="{14 + j * cell}" width="{cell}" height="{cell}" fill="{fill}"/>')
    s.append("</svg>")
    return "".join(s)
