/**
 * A WebGL 1 context as the agent's WebGL sources read it, built from a GPU profile. Constants have
 * their real GL enum values, so a source that asks for the wrong one gets `null`, as from a real
 * context (which also flags INVALID_ENUM).
 */

const enums = {
  VENDOR: 0x1f00,
  RENDERER: 0x1f01,
  VERSION: 0x1f02,
  SHADING_LANGUAGE_VERSION: 0x8b8c,
  MAX_TEXTURE_SIZE: 0x0d33,
  MAX_CUBE_MAP_TEXTURE_SIZE: 0x851c,
  MAX_RENDERBUFFER_SIZE: 0x84e8,
  MAX_VIEWPORT_DIMS: 0x0d3a,
  MAX_VERTEX_ATTRIBS: 0x8869,
  MAX_VERTEX_UNIFORM_VECTORS: 0x8dfb,
  MAX_FRAGMENT_UNIFORM_VECTORS: 0x8dfd,
  MAX_VARYING_VECTORS: 0x8dfc,
  MAX_TEXTURE_IMAGE_UNITS: 0x8872,
  MAX_VERTEX_TEXTURE_IMAGE_UNITS: 0x8b4c,
  MAX_COMBINED_TEXTURE_IMAGE_UNITS: 0x8b4d,
  ALIASED_LINE_WIDTH_RANGE: 0x846e,
  ALIASED_POINT_SIZE_RANGE: 0x846d,
  RED_BITS: 0x0d52,
  GREEN_BITS: 0x0d53,
  BLUE_BITS: 0x0d54,
  ALPHA_BITS: 0x0d55,
  DEPTH_BITS: 0x0d56,
  STENCIL_BITS: 0x0d57,
  SUBPIXEL_BITS: 0x0d50,
  VERTEX_SHADER: 0x8b31,
  FRAGMENT_SHADER: 0x8b30,
  LOW_FLOAT: 0x8df0,
  MEDIUM_FLOAT: 0x8df1,
  HIGH_FLOAT: 0x8df2,
  HIGH_INT: 0x8df5,
} as const

const debugRendererInfo = { UNMASKED_VENDOR_WEBGL: 0x9245, UNMASKED_RENDERER_WEBGL: 0x9246 } as const

type ParameterName = keyof typeof enums | keyof typeof debugRendererInfo
type Precision = { rangeMin: number; rangeMax: number; precision: number }

export interface GpuProfile {
  /** getParameter's answers, by constant name; a name left out answers null. */
  parameters: Partial<Record<ParameterName, unknown>>
  /** getSupportedExtensions(); WEBGL_debug_renderer_info among them unmasks the GPU. */
  extensions: string[] | null
  /** getShaderPrecisionFormat(shader, precision), by names ('VERTEX_SHADER', 'HIGH_FLOAT'). */
  precision(shader: string, precision: string): Precision | null
}

/** Chrome on Windows with an Intel GPU, through ANGLE on Direct3D 11. */
export const intelAngle: GpuProfile = {
  parameters: {
    VENDOR: 'WebKit',
    RENDERER: 'WebKit WebGL',
    VERSION: 'WebGL 1.0 (OpenGL ES 2.0 Chromium)',
    SHADING_LANGUAGE_VERSION: 'WebGL GLSL ES 1.0 (OpenGL ES GLSL ES 1.0 Chromium)',
    UNMASKED_VENDOR_WEBGL: 'Google Inc. (Intel)',
    UNMASKED_RENDERER_WEBGL:
      'ANGLE (Intel, Intel(R) UHD Graphics 620 (0x00005917) Direct3D11 vs_5_0 ps_5_0, D3D11)',
    MAX_TEXTURE_SIZE: 16_384,
    MAX_CUBE_MAP_TEXTURE_SIZE: 16_384,
    MAX_RENDERBUFFER_SIZE: 16_384,
    MAX_VIEWPORT_DIMS: new Int32Array([32_767, 32_767]),
    MAX_VERTEX_ATTRIBS: 16,
    MAX_VERTEX_UNIFORM_VECTORS: 4095,
    MAX_FRAGMENT_UNIFORM_VECTORS: 1024,
    MAX_VARYING_VECTORS: 30,
    MAX_TEXTURE_IMAGE_UNITS: 16,
    MAX_VERTEX_TEXTURE_IMAGE_UNITS: 16,
    MAX_COMBINED_TEXTURE_IMAGE_UNITS: 32,
    ALIASED_LINE_WIDTH_RANGE: new Float32Array([1, 1]),
    ALIASED_POINT_SIZE_RANGE: new Float32Array([1, 1024]),
    RED_BITS: 8,
    GREEN_BITS: 8,
    BLUE_BITS: 8,
    ALPHA_BITS: 8,
    DEPTH_BITS: 24,
    STENCIL_BITS: 0,
    SUBPIXEL_BITS: 4,
  },
  extensions: [
    'OES_texture_float',
    'WEBGL_debug_renderer_info',
    'ANGLE_instanced_arrays',
    'EXT_blend_minmax',
  ],
  precision: (_, precision) =>
    precision === 'HIGH_INT'
      ? { rangeMin: 31, rangeMax: 30, precision: 0 }
      : { rangeMin: 127, rangeMax: 127, precision: 23 },
}

const nameOf = new Map<number, string>(
  Object.entries({ ...enums, ...debugRendererInfo }).map(([name, value]) => [value, name]),
)

/** The context itself: WebGL's constants, and answers from the profile. */
export function fakeWebglContext(profile: GpuProfile) {
  return {
    ...enums,
    getParameter(parameter: number): unknown {
      const name = nameOf.get(parameter) as ParameterName | undefined
      return (name && profile.parameters[name]) ?? null
    },
    getSupportedExtensions: () => profile.extensions,
    getExtension: (name: string) =>
      name === 'WEBGL_debug_renderer_info' && profile.extensions?.includes(name)
        ? { ...debugRendererInfo }
        : null,
    getShaderPrecisionFormat: (shader: number, precision: number) =>
      profile.precision(nameOf.get(shader) ?? '', nameOf.get(precision) ?? ''),
  }
}

/**
 * A document whose canvases give `context` for the context types listed (others answer null),
 * counting the canvases made: the WebGL sources are meant to share one context.
 */
export function webglDocument(context: unknown, types: string[] = ['webgl', 'experimental-webgl']) {
  const made = { canvases: 0, requested: [] as string[] }
  const document = {
    createElement(tag: string) {
      if (tag !== 'canvas') throw new Error(`this fake document makes canvases only, not ${tag}`)
      made.canvases++
      return {
        getContext(type: string) {
          made.requested.push(type)
          return types.includes(type) ? context : null
        },
      }
    },
  }
  return { document, made }
}
