/** Results of maths functions whose last bits differ between JS engines and CPUs. */
export function mathQuirks(): number[] {
  const m = Math
  return [
    m.acos(0.12312423423423424),
    m.acosh(1e308),
    m.asinh(1),
    m.atanh(0.5),
    m.atan(0.5),
    m.sin(-1e300),
    m.sinh(1),
    m.cos(10.000000000123),
    m.cosh(1),
    m.tan(-1e300),
    m.tanh(1),
    m.exp(1),
    m.expm1(1),
    m.log1p(10),
    m.cbrt(100),
    m.pow(Math.PI, -100),
  ]
}
