import type { Dictionaries } from './packed-json'

// The preset dictionaries of packed columns (packed-json.ts). NEVER edit one: stored rows name it
// by its place in the list. A better dictionary is appended, and new rows use it.
//
// Each is the text of typical values, in the key order the server writes them, the most common
// last (deflate reaches nearer bytes with shorter codes).

/** events.signals: the smart signals of an identification (contracts/signals.ts). */
export const SIGNALS_DICTIONARY: Dictionaries = [
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
    '"ipBlocklist":{"result":false,"reasons":[]},"agentProof":{"result":"valid","reasons":[]}}',
]

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
