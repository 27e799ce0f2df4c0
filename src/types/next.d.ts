// Next's ambient types (CSS modules, images) without relying on the generated next-env.d.ts,
// so `npm run typecheck` works on a fresh clone before the first build.
/// <reference types="next" />
/// <reference types="next/image-types/global" />
