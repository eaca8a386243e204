# tests/lib/svg.awk: the scenario scripts' plots, one awk program (busybox
# awk in the VM: no log, exp or ^), the plot chosen by -v plot=:
#   scores  arena.svg: "SCENARIO POLICY SCORE MEETS_BOUND" lines in (the
#           score: IOPS / oracle), a group of bars per scenario, a bar per
#           policy, pale and crossed where over the bound
#           (jq ... | awk -v plot=scores -f svg.awk > arena.svg)
#   depth   arena-depth-SCENARIO.svg, one per scenario into -v out=DIR:
#           each policy's depth over its run, a line each, the oracle's
#           per phase dashed (awk -F, -v plot=depth -v out=DIR -f svg.awk
#           PHASES arena-depth.csv; PHASES: "SCENARIO MS END WORDS..."
#           lines, the phases every MS ms up to END)
#   trace   auto.svg: depth, IOPS and response p99 over time, a panel
#           each, a line per policy, shaded where the other initiators are
#           there (awk -F, -v plot=trace -v tp=S -f svg.awk auto-trace.csv,
#           S: the seconds they stay, and stay away)
# The arena's two plots share its policies' order and colours (porder()).

# order(): pn[1..np] the policies seen (seen[]; un[1..nu] those outside
# the arena's list, in the order met) in the arena's order, the oracle
# last; col[] their colours (the oracle's the tenth)
function porder() {
	n = split("knee target linux sd sd-fc static16 aimd kyber parda", order, " ")
	for (k = 1; k <= n; k++)
		if (order[k] in seen) { pn[++np] = order[k]; pi[order[k]] = np }
	for (k = 1; k <= nu; k++)
		if (!(un[k] in pi)) { pn[++np] = un[k]; pi[un[k]] = np }
	if ("oracle" in seen) { pn[++np] = "oracle"; pi["oracle"] = np }
	split("#4e79a7 #f28e2b #e15759 #76b7b2 #59a14f #edc948 #ff9da7 #9c755f #8cd17d #b07aa1", col, " ")
}
# a round tick step for an axis up to m: 1, 2 or 5 x 10^k, about 5 ticks
# (no log() or ^: busybox awk in the VM has no math)
function step(m,   r, e) {
	if (m <= 0) return 1
	r = m / 5; e = 1
	while (r >= 10) { r /= 10; e *= 10 }
	while (r < 1) { r *= 10; e /= 10 }
	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * e
}
function lbl(v) { return (v == int(v)) ? sprintf("%d", v) : sprintf("%g", v) }

plot == "scores" {
	if (!($1 in si)) { si[$1] = ++ns; sn[ns] = $1 }
	if (!($2 in seen) && $2 != "oracle") un[++nu] = $2
	seen[$2] = 1
	vv[si[$1], $2] = $3; okk[si[$1], $2] = ($4 == "true")
}
function scores() {
	porder()
	for (s = 1; s <= ns; s++)
		for (p = 1; p <= np; p++)
			if ((s, pn[p]) in vv) { v[s, p] = vv[s, pn[p]]; ok[s, p] = okk[s, pn[p]] }
	bw = 14; gw = np * bw + 24; W = 70 + ns * gw + 130; if (W < 620) W = 620; H = 260; y0 = 220; sc = 160 / 1.2
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", W, H
	printf "<text x=\"%d\" y=\"16\" font-size=\"13\">the arena: score against the oracle (best static depth per phase)</text>\n", 70
	printf "<text x=\"%d\" y=\"30\" fill=\"#555\">IOPS / oracle; wcache, ramp: oracle p99 / policy; pale, crossed: over the scenario bound</text>\n", 70
	for (t = 0; t <= 1.2; t += 0.2) {
		y = y0 - t * sc
		printf "<line x1=\"60\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", 70 + ns * gw, y, y, (t > 0.99 && t < 1.01) ? "#000" : "#ddd"
		printf "<text x=\"55\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", y + 4, t
	}
	printf "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">score</text>\n", y0 - 80, y0 - 80
	for (s = 1; s <= ns; s++) {
		x = 70 + (s - 1) * gw
		for (p = 1; p <= np; p++) {
			if (!((s, p) in v)) continue
			h = v[s, p] * sc; if (h > 1.2 * sc) h = 1.2 * sc
			printf "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"%s><title>%s %s %.3f%s</title></rect>\n", x + (p - 1) * bw, y0 - h, bw - 2, h, col[(p == np && pn[p] == "oracle") ? 10 : (p - 1) % 9 + 1], ok[s, p] ? "" : " fill-opacity=\"0.3\"", sn[s], pn[p], v[s, p], ok[s, p] ? "" : " (over the bound)"
			if (v[s, p] < 0.05)
				printf "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">0</text>\n", x + (p - 1) * bw + (bw - 2) / 2, y0 - 3
			if (!ok[s, p])
				printf "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">x</text>\n", x + (p - 1) * bw + (bw - 2) / 2, y0 - h - 2
		}
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x + np * bw / 2, y0 + 16, sn[s]
	}
	for (p = 1; p <= np; p++) {
		lx = 80 + ns * gw; ly = 40 + p * 16
		printf "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", lx, ly - 9, col[(p == np && pn[p] == "oracle") ? 10 : (p - 1) % 9 + 1], lx + 14, ly, pn[p]
	}
	print "</svg>"
}

plot == "depth" && FILENAME != ARGV[2] {
	split($0, w, " "); L[w[1]] = w[2]; E[w[1]] = w[3]
	np_[w[1]] = split($0, xw, " ") - 3; for (k = 4; k <= np_[w[1]] + 3; k++) ph[w[1], k - 3] = xw[k]; next
}
plot == "depth" && FNR == 1 { next }
plot == "depth" {
	if (!($1 in si)) { si[$1] = ++ns; sn[ns] = $1 }
	if (!($2 in seen) && $2 != "oracle") un[++nu] = $2
	seen[$2] = 1
	k = ++cnt[$1, $2]; T[$1, $2, k] = $3; D[$1, $2, k] = $4
	if ($4 > ymax[$1]) ymax[$1] = $4
}
function depth() {
	porder()
	x0 = 60; x1 = 580; y0 = 360; y1 = 60
	for (s = 1; s <= ns; s++) {
		sc = sn[s]; f = out "/arena-depth-" sc ".svg"; end = E[sc]; if (end <= 0) end = 1
		for (st = 1; ymax[sc] / st > 8; st *= 2) ;
		top = st * int((ymax[sc] + st - 1) / st); if (top < 4) top = 4
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"780\" height=\"410\" font-family=\"sans-serif\" font-size=\"11\">\n" > f
		printf "<text x=\"%d\" y=\"18\" font-size=\"13\">the arena, %s: each policy's depth over its run</text>\n", x0, sc > f
		printf "<text x=\"%d\" y=\"34\" fill=\"#555\">from the device's throttle log (every move); the oracle dashed: its best static depth per phase</text>\n", x0 > f
		for (d = 0; d <= top; d += st) {
			y = y0 - d * (y0 - y1) / top
			printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x0, x1, y, y, d ? "#ddd" : "#000" > f
			printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", x0 - 5, y + 4, d > f
		}
		for (st2 = 1000; end / st2 > 12; st2 *= 2) ;
		for (t = 0; t <= end; t += st2) {
			x = x0 + t * (x1 - x0) / end
			printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n", x, x, y0, y0 + 4 > f
			printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x, y0 + 16, t / 1000 > f
		}
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n", x0, x0, y1, y0 > f
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time since the load started (s)</text>\n", (x0 + x1) / 2, y0 + 34 > f
		printf "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">depth (commands the policy lets out)</text>\n", (y0 + y1) / 2, (y0 + y1) / 2 > f
		# the phases: a line where one ends, its words on top
		l = L[sc]; m = np_[sc]
		for (t = 0; l > 0 && t < end; t += l) {
			x = x0 + t * (x1 - x0) / end; xe = x0 + (t + l > end ? end : t + l) * (x1 - x0) / end
			if (t > 0) printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\" stroke-dasharray=\"2,3\"/>\n", x, x, y1 - 8, y0 > f
			if (m > 0) printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"9\" fill=\"#555\">%s</text>\n", (x + xe) / 2, y1 - 10, ph[sc, int(t / l) % m + 1] > f
		}
		ly = y1
		for (p = 1; p <= np; p++) {
			nm = pn[p]; c = cnt[sc, nm]
			if (!c) continue
			orc = (nm == "oracle")
			sw = orc ? 1.5 : 4.5 - 3 * (p - 1) / (np > 2 ? np - 2 : 1)
			path = ""
			for (k = 1; k <= c; k++) {
				x = x0 + T[sc, nm, k] * (x1 - x0) / end; y = y0 - D[sc, nm, k] * (y0 - y1) / top
				path = path (k == 1 ? sprintf("M%.1f %.1f", x, y) : sprintf(" H%.1f V%.1f", x, y))
			}
			printf "<path class=\"depth\" data-policy=\"%s\" d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s stroke-linejoin=\"round\"><title>%s</title></path>\n", nm, path, col[orc ? 10 : (p - 1) % 9 + 1], sw, orc ? " stroke-dasharray=\"6,4\"" : "", orc ? "oracle: the best static depth per phase" : nm ": " c - 2 " moves" > f
			printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%.1f\"%s/><text x=\"%d\" y=\"%d\">%s</text>\n", x1 + 20, x1 + 44, ly, ly, col[orc ? 10 : (p - 1) % 9 + 1], sw, orc ? " stroke-dasharray=\"6,4\"" : "", x1 + 50, ly + 4, nm > f
			ly += 18
		}
		print "</svg>" > f
		close(f)
	}
}

plot == "trace" && NR == 1 { next }
plot == "trace" {
	n++; P[n] = $1; T[n] = $2; D[n] = $3; I[n] = $4; L[n] = $5 / 1e6
	if (!($1 in seen)) { seen[$1] = 1; order[++np] = $1 }
	if ($2 > tmax) tmax = $2; if ($3 > dmax) dmax = $3; if ($4 > imax) imax = $4; if (L[n] > lmax) lmax = L[n]
}
function trace() {
	W = 760; H = 180; X0 = 70; G = 44; split("#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b #e377c2", col, " ")
	split("depth (commands)|IOPS|response p99 (ms)", lab, "|")
	mx[1] = dmax; mx[2] = imax; mx[3] = lmax
	if (tmax <= 0) tmax = 1
	xs = step(tmax)
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", X0 + W + 170, 3 * (H + G) + 40
	printf "<text x=\"%d\" y=\"16\" font-size=\"13\">lunq tunes itself: seed 004 hostile case (other initiators hold 16 of 32 pool slots in the shaded half of each period)</text>\n", X0
	for (p = 1; p <= 3; p++) {
		y0 = 34 + (p - 1) * (H + G)
		ys = step(mx[p]); top = ys * int((mx[p] + ys - 1e-9) / ys); if (top <= 0) top = ys
		for (t = 0; t < tmax; t += 2 * tp) {
			ww = tp; if (t + ww > tmax) ww = tmax - t
			printf "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#eeeeee\"/>\n", X0 + t / tmax * W, y0, ww / tmax * W, H
		}
		for (tv = 0; tv <= top + 1e-9; tv += ys) {
			y = y0 + H - tv / top * H
			printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#cccccc\" stroke-width=\"0.5\"/>\n", X0, y, X0 + W, y
			printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", X0 - 4, y + 4, lbl(tv)
		}
		for (t = 0; t <= tmax + 1e-9; t += xs) {
			x = X0 + t / tmax * W
			printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>\n", x, y0 + H, x, y0 + H + 4
			printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, y0 + H + 15, lbl(t)
		}
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">s</text>\n", X0 + W + 14, y0 + H + 15
		printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n", X0, y0, W, H
		printf "<text x=\"5\" y=\"%d\" font-weight=\"bold\">%s</text>\n", y0 - 6, lab[p]
		for (k = 1; k <= np; k++) {
			pts = ""
			for (i = 1; i <= n; i++) {
				if (P[i] != order[k]) continue
				tv = (p == 1) ? D[i] : (p == 2) ? I[i] : L[i]
				if (tv == "") continue
				pts = pts sprintf("%.1f,%.1f ", X0 + T[i] / tmax * W, y0 + H - tv / top * H)
			}
			printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>\n", col[k], pts
		}
	}
	# the legend, right of the plots
	lx = X0 + W + 24
	printf "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">policy</text>\n", lx, 48
	for (k = 1; k <= np; k++) {
		printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n", lx, 60 + 16 * k - 4, lx + 18, 60 + 16 * k - 4, col[k]
		printf "<text x=\"%d\" y=\"%d\">%s</text>\n", lx + 24, 60 + 16 * k, order[k]
	}
	ly = 60 + 16 * (np + 1) + 8
	printf "<rect x=\"%d\" y=\"%d\" width=\"18\" height=\"10\" fill=\"#eeeeee\" stroke=\"#999\"/>\n", lx, ly - 9
	printf "<text x=\"%d\" y=\"%d\">other initiators</text>\n<text x=\"%d\" y=\"%d\">present</text>\n", lx + 24, ly, lx + 24, ly + 13
	printf "<text x=\"%d\" y=\"%d\">time (seconds)</text>\n</svg>\n", X0 + W / 2 - 30, 3 * (H + G) + 34
}

END {
	if (plot == "scores") scores()
	else if (plot == "depth") depth()
	else if (plot == "trace") trace()
}
