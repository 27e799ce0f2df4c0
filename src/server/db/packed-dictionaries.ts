import type { Dictionaries } from './packed-json'

// The preset dictionaries of packed columns (packed-json.ts). NEVER edit one: stored rows name it
// by its place in the list. A better dictionary is appended, and new rows use it.
//
// Each is the text of typical values, in the key order the server writes them, the most common
// last (deflate reaches nearer bytes with shorter codes).

/** events.signals: the smart signals of an identification (contracts/signals.ts). */
const SIGNALS_V1 =
  '"The address is in the site\'s blocklist."' +
  '"The request carried a Via header that no trusted proxy added."' +
  '"The call carried no nonce from this server: the agent did not run, or an old agent did."' +
  '"different visitors from this address in an hour."' +
  '"The browser\'s time zone" "a hosting network (AS' +
  '{"bot":{"result":"bad","kind":"Headless Chromium","reasons":["' +
  '{"result":true,"reasons":["' +
  '"ipInfo":{"result":null,"reasons":["The address is in none of the network databases (a private or unannounced address)."]},' +
  '"result":"isp"hosting"vpn"relay","confidence":"low","confidence":"medium",' +
  '{"bot":{"result":"notDetected","reasons":[]},"tampering":{"result":false,"reasons":[]},' +
  '"privacyBrowser":{"result":false,"reasons":[]},"privateMode":{"result":false,"reasons":[]},' +
  '"virtualMachine":{"result":false,"reasons":[]},' +
  '"velocity":{"result":{"events":{"5m":1,"1h":1,"24h":1},"distinctIps":{"5m":1,"1h":1,"24h":1},' +
  '"distinctLinkedIds":{"24h":0}},"reasons":[]},' +
  '"ipVelocity":{"result":{"address":{"events":{"5m":1,"1h":1,"24h":1},"visitors":{"1h":1,"24h":1},' +
  '"accounts":{"1h":0,"24h":0}},"network":{"prefix":"0.0.0.0/24","visitors":{"1h":1,"24h":1},' +
  '"accounts":{"1h":0,"24h":0}}},"reasons":[]},' +
  '"ipInfo":{"result":{"address":"0.0.0.0","version":4,"countryCode":"US","countryName":"United States",' +
  '"region":"","city":"","latitude":0.0,"longitude":0.0,"timezone":null,"asn":0,' +
  '"asnOrganization":"","asnType":"isp"},"reasons":[]},"datacenter":{"result":false,"reasons":[]},' +
  '"vpn":{"result":false,"confidence":"high","details":{"originTimezone":"","originCountry":"",' +
  '"methods":{"timezoneMismatch":false,"publicVpn":false,"relay":false}},"reasons":[]},' +
  '"proxy":{"result":false,"confidence":"high","reasons":[]},"tor":{"result":false,"reasons":[]},' +
  '"ipBlocklist":{"result":false,"reasons":[]},"agentProof":{"result":"valid","reasons":[]}}'

/**
 * Version 2: the signals as packed-signals.ts stores them beside their row, whose ipInfo holds the
 * typical values in place of the row's own (address, country, AS) and nulls in place of its
 * ip_details, after the time zones most browsers report (vpn.details.originTimezone: the most
 * populous of each region, in the names Chromium reports them by).
 */
const SIGNALS_V2 =
  '"Pacific/Auckland""Australia/Melbourne""Australia/Sydney""Asia/Tehran""Asia/Riyadh""Asia/Dubai"' +
  '"Asia/Karachi""Asia/Dhaka""Asia/Calcutta""Asia/Kolkata""Asia/Bangkok""Asia/Saigon""Asia/Jakarta"' +
  '"Asia/Manila""Asia/Singapore""Asia/Hong_Kong""Asia/Taipei""Asia/Shanghai""Asia/Seoul""Asia/Tokyo"' +
  '"Africa/Lagos""Africa/Cairo""Africa/Nairobi""Africa/Johannesburg""Europe/Moscow""Europe/Istanbul"' +
  '"Europe/Kiev""Europe/Kyiv""Europe/Warsaw""Europe/Amsterdam""Europe/Rome""Europe/Madrid""Europe/Paris"' +
  '"Europe/Berlin""Europe/London""America/Santiago""America/Lima""America/Bogota""America/Argentina/Buenos_Aires"' +
  '"America/Mexico_City""America/Sao_Paulo""America/Toronto""America/Phoenix""America/Denver"' +
  '"America/Los_Angeles""America/Chicago""America/New_York"' +
  SIGNALS_V1.replace(
    '"countryName":"United States",' +
      '"region":"","city":"","latitude":0.0,"longitude":0.0,"timezone":null,"asn":0,' +
      '"asnOrganization":"","asnType":"isp"}',
    '"countryName":null,"region":null,"city":null,"latitude":null,"longitude":null,"timezone":null,"asn":0,' +
      '"asnOrganization":null,"asnType":null}',
  )

export const SIGNALS_DICTIONARY: Dictionaries = [SIGNALS_V1, SIGNALS_V2]

/** events.evidence: how a match was reached (contracts/device.ts MatchEvidence). */
export const EVIDENCE_DICTIONARY: Dictionaries = [
  '"level":"previous","level":"close","level":"different",' +
    '{"bits":0.0,"twinBits":0.0,"facets":[' +
    '{"facet":"browser","level":"exact","bits":0.0},{"facet":"locale","level":"exact","bits":0.0},' +
    '{"facet":"time","level":"exact","bits":0.0},{"facet":"screen","level":"exact","bits":0.0},' +
    '{"facet":"zoom","level":"exact","bits":0.0},{"facet":"hardware","level":"exact","bits":0.0},' +
    '{"facet":"graphics","level":"exact","bits":0.0},{"facet":"webgpu","level":"exact","bits":0.0},' +
    '{"facet":"audio","level":"exact","bits":0.0},{"facet":"rendering","level":"exact","bits":0.0},' +
    '{"facet":"voices","level":"exact","bits":0.0},{"facet":"engine","level":"exact","bits":0.0},' +
    '{"facet":"accessibility","level":"exact","bits":0.0},{"facet":"colorScheme","level":"exact","bits":0.0},' +
    '{"facet":"window","level":"exact","bits":0.0},{"facet":"privacySettings","level":"exact","bits":0.0}],' +
    '"jointBits":0.0,"contextBits":0.0,"recencyBits":0.0}',
]

/**
 * events.evidence written as numbers (packed-evidence.ts): each facet by its place here, so a name
 * is only ever appended (a facet this list lacks is stored as packed JSON).
 */
export const EVIDENCE_FACETS: readonly string[] = [
  'browser',
  'locale',
  'time',
  'screen',
  'zoom',
  'hardware',
  'graphics',
  'webgpu',
  'audio',
  'rendering',
  'voices',
  'engine',
  'accessibility',
  'colorScheme',
  'window',
  'privacySettings',
]

/**
 * component_snapshots.components: what a browser's agent collects (contracts/components.ts), top-level
 * keys in jsonb's order as the server writes them. The vocabulary any browser shares: WebGL's extension
 * and parameter names, common user agents, the HTML standard's five PDF viewers, and the agent's
 * registry with a typical desktop value where one is common to many browsers (no value of one device:
 * fonts, canvas, audio and math results are left empty).
 */
const COMPONENTS_V1 =
  '"ANGLE_instanced_arrays","EXT_blend_minmax","EXT_clip_control","EXT_color_buffer_float",' +
  '"EXT_color_buffer_half_float","EXT_depth_clamp","EXT_disjoint_timer_query",' +
  '"EXT_disjoint_timer_query_webgl2","EXT_float_blend","EXT_frag_depth","EXT_polygon_offset_clamp",' +
  '"EXT_render_snorm","EXT_sRGB","EXT_shader_texture_lod","EXT_texture_compression_bptc",' +
  '"EXT_texture_compression_rgtc","EXT_texture_filter_anisotropic","EXT_texture_mirror_clamp_to_edge",' +
  '"EXT_texture_norm16","KHR_parallel_shader_compile","OES_draw_buffers_indexed",' +
  '"OES_element_index_uint","OES_fbo_render_mipmap","OES_sample_variables",' +
  '"OES_shader_multisample_interpolation","OES_standard_derivatives","OES_texture_float",' +
  '"OES_texture_float_linear","OES_texture_half_float","OES_texture_half_float_linear",' +
  '"OES_vertex_array_object","OVR_multiview2","WEBGL_blend_func_extended","WEBGL_clip_cull_distance",' +
  '"WEBGL_color_buffer_float","WEBGL_compressed_texture_astc","WEBGL_compressed_texture_etc",' +
  '"WEBGL_compressed_texture_etc1","WEBGL_compressed_texture_pvrtc","WEBGL_compressed_texture_s3tc",' +
  '"WEBGL_compressed_texture_s3tc_srgb","WEBGL_debug_renderer_info","WEBGL_debug_shaders",' +
  '"WEBGL_depth_texture","WEBGL_draw_buffers","WEBGL_lose_context","WEBGL_multi_draw",' +
  '"WEBGL_polygon_mode","WEBGL_provoking_vertex",' +
  '"WEBKIT_WEBGL_compressed_texture_pvrtc""Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML,' +
  ' like Gecko) Version/18.0 Safari/605.1.15""Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0""Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML,' +
  ' like Gecko) Version/18.0 Mobile/15E148 Safari/604.1""Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML,' +
  ' like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36""Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML,' +
  ' like Gecko) Chrome/142.0.0.0 Safari/537.36"{"MAX_TEXTURE_SIZE":16384,' +
  '"MAX_CUBE_MAP_TEXTURE_SIZE":16384,"MAX_RENDERBUFFER_SIZE":16384,"MAX_VIEWPORT_DIMS":[32767,32767],' +
  '"MAX_VERTEX_ATTRIBS":16,"MAX_VERTEX_UNIFORM_VECTORS":4096,"MAX_FRAGMENT_UNIFORM_VECTORS":1024,' +
  '"MAX_VARYING_VECTORS":30,"MAX_TEXTURE_IMAGE_UNITS":16,"MAX_VERTEX_TEXTURE_IMAGE_UNITS":16,' +
  '"MAX_COMBINED_TEXTURE_IMAGE_UNITS":32,"ALIASED_LINE_WIDTH_RANGE":[1,1],' +
  '"ALIASED_POINT_SIZE_RANGE":[1,1024],"RED_BITS":8,"GREEN_BITS":8,"BLUE_BITS":8,"ALPHA_BITS":8,' +
  '"DEPTH_BITS":24,"STENCIL_BITS":8,"SUBPIXEL_BITS":4,"VERTEX_SHADER.LOW_FLOAT":[127,127,23],' +
  '"VERTEX_SHADER.MEDIUM_FLOAT":[127,127,23],"VERTEX_SHADER.HIGH_FLOAT":[127,127,23],' +
  '"VERTEX_SHADER.HIGH_INT":[31,30,0],"FRAGMENT_SHADER.LOW_FLOAT":[127,127,23],' +
  '"FRAGMENT_SHADER.MEDIUM_FLOAT":[127,127,23],"FRAGMENT_SHADER.HIGH_FLOAT":[127,127,23],' +
  '"FRAGMENT_SHADER.HIGH_INT":[31,30,0]}{"hdr":{"value":"standard"},"audio":{"value":""},' +
  '"fonts":{"value":""},"canvas":{"value":{"winding":true,"text":"","geometry":""}},' +
  '"codecs":{"value":""},"screen":{"value":[1920,1080]},"vendor":{"value":"Google Inc."},' +
  '"webgpu":{"value":"unsupported"},"plugins":{"value":["PDF Viewer|application/pdf,text/pdf",' +
  '"Chrome PDF Viewer|application/pdf,text/pdf","Chromium PDF Viewer|application/pdf,text/pdf",' +
  '"Microsoft Edge PDF Viewer|application/pdf,text/pdf","WebKit built-in PDF|application/pdf,' +
  'text/pdf"]},"applePay":{"value":"unsupported"},"contrast":{"value":"no-preference"},' +
  '"platform":{"value":"Win32"},"timezone":{"value":"America/New_York"},"indexedDb":{"value":true},' +
  '"languages":{"value":["en-US","en"]},"pdfViewer":{"value":true},"userAgent":{"value":""},' +
  '"webdriver":{"value":false},"colorDepth":{"value":[24,24]},"colorGamut":{"value":"srgb"},' +
  '"connection":{"value":{"rtt":50,"type":"4g","saveData":false}},"doNotTrack":{"value":"unsupported"},' +
  '"errorStack":{"value":{"message":"","frame":"v8"}},"intlLocale":{"value":{"locale":"en-US",' +
  '"calendar":"gregory","numberingSystem":"latn","hourCycle":"h12","number":"1,234,567.891"}},' +
  '"jsFeatures":{"value":""},"mathQuirks":{"value":""},"monochrome":{"value":0},' +
  '"colorScheme":{"value":"light"},"permissions":{"value":{"notification":"default","query":"prompt"}},' +
  '"webglBasics":{"value":{"version":"WebGL 1.0 (OpenGL ES 2.0 Chromium)",' +
  '"shadingLanguage":"WebGL GLSL ES 1.0 (OpenGL ES GLSL ES 1.0 Chromium)","vendor":"WebKit",' +
  '"renderer":"WebKit WebGL","unmaskedVendor":"Google Inc. (","unmaskedRenderer":"ANGLE ("}},' +
  '"architecture":{"value":255},"audioLatency":{"value":{"baseLatency":0.01,"sampleRate":48000}},' +
  '"deviceMemory":{"value":8},"forcedColors":{"value":"none"},"hoverPointer":{"value":["hover","fine",' +
  '"hover","fine"]},"localStorage":{"value":true},"speechVoices":{"value":[]},' +
  '"storageQuota":{"value":"unsupported"},"touchSupport":{"value":{"maxTouchPoints":0,' +
  '"touchEvent":false,"touchStart":false}},"reducedMotion":{"value":"no-preference"},' +
  '"stealthTraces":{"value":[]},"userAgentData":{"value":"unsupported"},' +
  '"vendorFlavors":{"value":["chrome"]},"cookiesEnabled":{"value":true},' +
  '"invertedColors":{"value":"none"},"paymentRequest":{"value":true},"sessionStorage":{"value":true},' +
  '"timezoneOffset":{"value":0},"windowGeometry":{"value":{"outer":[1920,1040],"inner":[1920,937],' +
  '"position":[0,0],"viewport":1}},"availableScreen":{"value":[1920,1040,0,0]},' +
  '"fontPreferences":{"value":{"default":0,"serif":0,"sans":0,"mono":0,"system":0,"min":0}},' +
  '"nativeFunctions":{"value":[]},"webglExtensions":{"value":""},"webglParameters":{"value":""},' +
  '"devicePixelRatio":{"value":1},"automationGlobals":{"value":[]},"hardwareConcurrency":{"value":8},' +
  '"reducedTransparency":{"value":"no-preference"},"globalPrivacyControl":{"value":"unsupported"},' +
  '"privateClickMeasurement":{"value":"unsupported"}}'

/**
 * Version 2: what every browser on one engine shares, where version 1 left the value empty. V8's
 * maths results and its error message (read from Chromium 156: every Chromium-based browser of a
 * version answers the same, other engines and V8 versions differ in a few last digits, which a match
 * of the rest still covers), and the agent's font candidates in its order (sources/fonts.ts: a
 * device's fonts are a subset of them).
 */
const COMPONENTS_V2 = COMPONENTS_V1.replace(
  '"errorStack":{"value":{"message":"","frame":"v8"}}',
  `"errorStack":{"value":{"message":"Cannot read properties of null (reading 'probe')","frame":"v8"}}`,
)
  .replace(
    '"mathQuirks":{"value":""}',
    '"mathQuirks":{"value":[1.4473588658278522,709.889355822726,0.881373587019543,0.5493061443340548,' +
      '0.4636476090008061,0.8178819121159085,1.1752011936438014,-0.8390715290095377,1.5430806348152437,' +
      '-1.4214488238747245,0.7615941559557649,2.718281828459045,1.718281828459045,2.3978952727983707,' +
      '4.641588833612779,1.9275814160560206e-50]}',
  )
  .replace(
    '"fonts":{"value":""}',
    '"fonts":{"value":["Arial Narrow","Bahnschrift","Calibri","Cambria","Century Gothic","Consolas",' +
      '"Ebrima","Franklin Gothic","Gabriola","Helvetica Neue","Lucida Console","Malgun Gothic",' +
      '"Microsoft YaHei","MS Gothic","Segoe UI","SimSun","Sylfaen","Wingdings","American Typewriter",' +
      '"Avenir Next","Futura","Geneva","Gill Sans","Hiragino Sans","Menlo","Optima","PingFang SC","Skia",' +
      '"Cantarell","DejaVu Sans","Droid Sans","Liberation Sans","Noto Color Emoji","Noto Sans",' +
      '"Noto Sans CJK JP","Roboto","Ubuntu","Fira Sans","Source Code Pro","Open Sans","Lato","Inter"]}',
  )

export const COMPONENTS_DICTIONARY: Dictionaries = [COMPONENTS_V1, COMPONENTS_V2]

/**
 * events.user_agent (a JSON string): the user agents of the browsers and clients most sites see,
 * current versions, the most common last. A browser's version differs; the rest is a match.
 */
export const USER_AGENT_DICTIONARY: Dictionaries = [
  '"curl/8.5.0""python-requests/2.32.3""Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"' +
    '"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"' +
    '"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36"' +
    '"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 OPR/126.0.0.0"' +
    '"Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36"' +
    '"Mozilla/5.0 (iPad; CPU OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1"' +
    '"Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:145.0) Gecko/20100101 Firefox/145.0"' +
    '"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0"' +
    '"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:145.0) Gecko/20100101 Firefox/145.0"' +
    '"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"' +
    '"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15"' +
    '"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0"' +
    '"Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Mobile/15E148 Safari/604.1"' +
    '"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36"' +
    '"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"' +
    '"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"',
]
