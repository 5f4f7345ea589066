#!/usr/bin/env python3
"""Fits the polynomials that VecMath.inc uses for exp, erfc and tanh.

Prints the C++ constants; paste them into VecMath.inc when changing a fit.
Needs only mpmath (Debian python3-mpmath). Chebyshev fits are near-minimax;
the error printed is the fit's max absolute error on its interval.
"""
import mpmath as mp

mp.mp.dps = 40


def emit(name, coeffs, err):
    # chebyfit returns the highest degree first, as Horner's rule uses them.
    body = ", ".join(mp.nstr(c, 12, min_fixed=-2, max_fixed=0) + "f" for c in coeffs)
    print(f"// max abs error {mp.nstr(err, 3)}")
    print(f"constexpr float {name}[] = {{{body}}};")


# exp(r) = 1 + r + r^2 q(r) for r in [-ln2/2, ln2/2].
ln2 = mp.log(2)
def exp_q(r):
    return mp.mpf(1) / 2 + r / 6 if abs(r) < mp.mpf("1e-12") else (mp.exp(r) - 1 - r) / r**2
emit("kExpQ", *mp.chebyfit(exp_q, [-ln2 / 2, ln2 / 2], 6, error=True))

# erfc(z) = exp(-z^2) t g(t), t = 1 / (1 + a z), z >= 0: g is smooth on [0, 1].
a = mp.mpf("0.4")
def erfc_g(t):
    if t == 0:
        return a / mp.sqrt(mp.pi)
    z = (1 / t - 1) / a
    return mp.erfc(z) * mp.exp(z * z) / t
emit("kErfcG", *mp.chebyfit(erfc_g, [0, 1], 11, error=True))

# tanh(x) = x + x^3 q(x^2) for |x| <= 0.55.
def tanh_q(u):
    if u == 0:
        return mp.mpf(-1) / 3
    s = mp.sqrt(u)
    return (mp.tanh(s) - s) / (u * s)
emit("kTanhQ", *mp.chebyfit(tanh_q, [0, mp.mpf("0.55") ** 2], 5, error=True))
