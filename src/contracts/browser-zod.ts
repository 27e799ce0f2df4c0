import { z } from 'zod'

// In the browser zod probes `new Function` to compile fast parsers, which the screens' CSP (no
// 'unsafe-eval') blocks and reports as a violation. Browsers parse small forms: the interpreter will do.
// Imported first by every contract the browser loads.
if (typeof window !== 'undefined') z.config({ jitless: true })
