import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { HostileHarness } from './support/hostile-harness';
import type { HostileAnswer } from './support/raw-http';

/**
 * Upload-from-url with private networks refused (UPLOAD_FROM_URL_ALLOW_PRIVATE_NETWORKS
 * unset). Loopback in every spelling, private, link-local, shared, metadata and reserved ranges,
 * userinfo, other schemes, malformed URLs. A refused address is a 422 whose message names no
 * address the request did not itself hold (no DNS oracle); a malformed URL or another scheme is a
 * 400; and a listener of ours on loopback, which most of the table aims at, is never connected to.
 */
jest.setTimeout(300_000);

/** The statuses a row may answer: 422 for a refused address, 400 for a URL that is malformed or not http(s). */
type Row = [url: string, statuses: (400 | 422)[], why: string, messages?: string[]];

function table(port: number): Row[] {
  // Refused for its address, and saying so: a 422 for an unreachable host would pass otherwise.
  const refused = (url: string, why: string): Row => [url, [422], why, ['private or reserved network address']];
  // `localhost.` resolves to loopback where the resolver reads the trailing dot, and not at all elsewhere.
  const refusedOrUnresolved = (url: string, why: string): Row => [
    url,
    [422],
    why,
    ['private or reserved network address', 'does not resolve'],
  ];
  const malformed = (url: string, why: string): Row => [url, [400], why];
  // Credentials in a URL may be refused as a bad request before any address is looked at: either is no fetch.
  const withUserinfo = (url: string, why: string): Row => [url, [422, 400], why];
  const p = port;
  return [
    refused(`http://127.0.0.1:${p}/cv.txt`, 'loopback'),
    refused(`http://127.1:${p}/cv.txt`, 'loopback, short form'),
    refused(`http://2130706433:${p}/cv.txt`, 'loopback as one decimal number'),
    refused(`http://0x7f000001:${p}/cv.txt`, 'loopback in hex'),
    refused(`http://0177.0.0.1:${p}/cv.txt`, 'loopback in octal'),
    refused(`http://0x7f.0.0.1:${p}/cv.txt`, 'loopback, hex first part'),
    refused(`http://127.000.000.001:${p}/cv.txt`, 'loopback with leading zeros'),
    refused(`http://127.255.255.254:${p}/cv.txt`, 'the rest of 127/8'),
    refused(`http://\uff11\uff12\uff17.\uff10.\uff10.\uff11:${p}/cv.txt`, 'loopback in full-width digits (IDNA maps them)'),
    refused(`http://[::1]:${p}/cv.txt`, 'IPv6 loopback'),
    refused(`http://[0:0:0:0:0:0:0:1]:${p}/cv.txt`, 'IPv6 loopback, long form'),
    refused(`http://[::ffff:127.0.0.1]:${p}/cv.txt`, 'IPv4-mapped loopback'),
    refused(`http://[::ffff:7f00:1]:${p}/cv.txt`, 'IPv4-mapped loopback in hex'),
    refused(`http://[::7f00:1]:${p}/cv.txt`, 'IPv4-compatible loopback (::127.0.0.1)'),
    refused(`http://[::127.0.0.1]:${p}/cv.txt`, 'IPv4-compatible loopback, dotted'),
    refused(`http://[64:ff9b::7f00:1]:${p}/cv.txt`, 'NAT64 of loopback'),
    refused(`http://[2002:7f00:1::]:${p}/cv.txt`, '6to4 of loopback'),
    refused(`http://[::]:${p}/cv.txt`, 'IPv6 unspecified (reaches loopback)'),
    refused(`http://localhost:${p}/cv.txt`, 'localhost'),
    refusedOrUnresolved(`http://localhost.:${p}/cv.txt`, 'localhost, trailing dot'),
    refused(`http://LOCALHOST:${p}/cv.txt`, 'localhost, upper case'),
    refusedOrUnresolved(`http://LocalHost.:${p}/cv.txt`, 'localhost, mixed case and dot'),
    refused(`http://0.0.0.0:${p}/cv.txt`, 'unspecified (reaches loopback on Linux)'),
    refused(`http://0:${p}/cv.txt`, 'unspecified as one number'),
    withUserinfo(`http://user@127.0.0.1:${p}/cv.txt`, 'userinfo before loopback'),
    withUserinfo(`http://user:pass@127.0.0.1:${p}/cv.txt`, 'credentials before loopback'),
    withUserinfo(`http://example.com@127.0.0.1:${p}/cv.txt`, 'a public name as userinfo before loopback'),
    withUserinfo(`http://user@localhost:${p}/cv.txt`, 'userinfo before localhost'),
    refused(`http://127.0.0.1:${p}#@example.com/cv.txt`, 'a public name after a fragment'),
    refused(`https://127.0.0.1:${p}/cv.txt`, 'https to loopback'),
    refused(`HTTP://127.0.0.1:${p}/cv.txt`, 'upper-case scheme'),
    refused(`http:/127.0.0.1:${p}/cv.txt`, 'one slash (normalised to http://)'),
    refused(`http:\\\\127.0.0.1:${p}\\cv.txt`, 'backslashes (normalised to slashes)'),
    refused(`http://127.0.0.1:${p}/redirect?to=http://169.254.169.254/`, 'loopback with a redirect target in the query'),
    refused('http://10.0.0.1/cv.txt', '10/8'),
    refused(`http://10.255.255.254:${p}/cv.txt`, '10/8, top'),
    refused('http://172.16.0.1/cv.txt', '172.16/12'),
    refused('http://172.31.255.254/cv.txt', '172.16/12, top'),
    refused('http://192.168.0.1/cv.txt', '192.168/16'),
    refused(`http://192.168.255.254:${p}/cv.txt`, '192.168/16, top'),
    refused('http://169.254.169.254/latest/meta-data/', 'cloud metadata'),
    refused('http://169.254.169.254:80/latest/meta-data/iam/security-credentials/', 'cloud metadata with its port'),
    refused('http://[fd00:ec2::254]/latest/meta-data/', 'cloud metadata over IPv6'),
    refused('http://[::ffff:169.254.169.254]/latest/meta-data/', 'cloud metadata, IPv4-mapped'),
    refused('http://0xa9fea9fe/latest/meta-data/', 'cloud metadata in hex'),
    refused('http://100.64.0.1/cv.txt', '100.64/10 (shared address space)'),
    refused('http://100.127.255.254/cv.txt', '100.64/10, top'),
    refused('http://[fc00::1]/cv.txt', 'fc00::/7'),
    refused('http://[fd12:3456:789a::1]/cv.txt', 'fc00::/7 (fd)'),
    refused('http://[fe80::1]/cv.txt', 'fe80::/10'),
    refused('http://[febf::1]/cv.txt', 'fe80::/10, top'),
    refused('http://[::ffff:10.0.0.1]/cv.txt', 'IPv4-mapped 10/8'),
    refused('http://224.0.0.1/cv.txt', 'multicast'),
    refused('http://255.255.255.255/cv.txt', 'broadcast'),
    refused('http://198.18.0.1/cv.txt', 'benchmarking'),
    refused('http://192.0.2.1/cv.txt', 'documentation (TEST-NET-1)'),
    refused('http://192.0.0.1/cv.txt', 'IETF protocol assignments'),
    refused('http://240.0.0.1/cv.txt', 'reserved (240/4)'),
    refused('http://[ff02::1]/cv.txt', 'IPv6 multicast'),
    refused('http://[2001:db8::1]/cv.txt', 'IPv6 documentation'),
    [`http://does-not-exist.invalid:${p}/cv.txt`, [422], 'a name that does not resolve', ['does not resolve']],
    malformed('file:///etc/passwd', 'file:'),
    malformed('file://127.0.0.1/etc/passwd', 'file: with a host'),
    malformed(`ftp://127.0.0.1:${p}/cv.txt`, 'ftp:'),
    malformed(`gopher://127.0.0.1:${p}/_GET%20/cv.txt`, 'gopher:'),
    malformed('data:text/plain,Senior%20Accountant', 'data:'),
    malformed('javascript:alert(1)', 'javascript:'),
    malformed(`dict://127.0.0.1:${p}/info`, 'dict:'),
    malformed(`ldap://127.0.0.1:${p}/`, 'ldap:'),
    malformed(`ws://127.0.0.1:${p}/`, 'ws:'),
    malformed(`jar:http://127.0.0.1:${p}/cv.zip!/cv.txt`, 'jar:'),
    malformed('', 'empty'),
    malformed('not a url', 'no scheme, spaces'),
    malformed('127.0.0.1', 'an address alone'),
    malformed(`//127.0.0.1:${p}/cv.txt`, 'scheme-relative'),
    malformed('/cv.txt', 'a path alone'),
    malformed('http://', 'no host'),
    malformed('http://[::1', 'an unclosed IPv6 literal'),
    malformed('http://300.0.0.1/cv.txt', 'an IPv4 part over 255'),
    malformed('http:// 127.0.0.1/cv.txt', 'a space in the host'),
    malformed('http://[fe80::1%25eth0]/cv.txt', 'an IPv6 zone id'),
    malformed('http://127.0.0.1:99999/cv.txt', 'a port over 65535'),
    malformed('http://127.0.0.1:-1/cv.txt', 'a negative port'),
    malformed('http://exa mple.com/cv.txt', 'a space in a name'),
  ];
}

/** The IP addresses a text names (dotted IPv4 and IPv6 literals). */
function addressesIn(text: string): string[] {
  const candidates = text.match(/(?:\d{1,3}\.){3}\d{1,3}|(?:[0-9a-f]{0,4}:){2,7}(?:[0-9a-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?/gi) ?? [];
  return [...new Set(candidates.filter((c) => isIP(c) !== 0))];
}

describe('upload-from-url refuses private networks (SSRF)', () => {
  let h: HostileHarness;
  let key = '';
  let port = 0;
  let connections = 0;
  const servers: Server[] = [];
  const failures: string[] = [];

  beforeAll(async () => {
    // A listener on loopback (v4 and, on the same port when free, v6) serving a CV: every
    // connection to it is the service fetching what it must refuse.
    const serve = () =>
      createServer((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end('Senior Accountant\nSummary\nCPA with eight years of general ledger work and reconciliations.\n'),
      ).on('connection', () => connections++);
    const v4 = serve();
    await new Promise<void>((r) => v4.listen(0, '127.0.0.1', r));
    port = (v4.address() as AddressInfo).port;
    servers.push(v4);
    const v6 = serve();
    await new Promise<void>((r) => v6.once('error', () => r()).listen(port, '::1', r));
    if (v6.listening) servers.push(v6);

    h = await HostileHarness.start('ssrf', { UPLOAD_FROM_URL_ALLOW_PRIVATE_NETWORKS: 'false' });
    const company = await h.createCompany('ssrf');
    await h.raiseLimits(company.companyId);
    key = company.apiKey;
  });

  afterAll(async () => {
    for (const s of servers) await new Promise((r) => s.close(r));
    if (h) {
      h.report({ 'connections to our loopback listener': connections, 'SSRF table failures': failures.length });
      if (failures.length) process.stdout.write(`\nSSRF table failures:\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
      await h.destroy();
    }
  });

  const ask = (url: string): Promise<HostileAnswer> =>
    h.call('POST', '/v1/public/documents/upload-from-url', {
      key,
      json: { url, documentName: 'SSRF probe', documentDate: '01-2024' },
      family: 'ssrf',
    });

  it('answers each row of the table as it must, and names no address the URL did not hold', async () => {
    for (const [url, statuses, why, expected] of table(port)) {
      const answer = await ask(url);
      const code = (answer.json as { error?: string } | undefined)?.error;
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever the server sent, printed as is
      const message = String((answer.json as { message?: unknown } | undefined)?.message ?? '');
      if (!(statuses as number[]).includes(answer.status)) {
        failures.push(
          `${why}: ${JSON.stringify(url)} answered ${answer.status} ${answer.text.slice(0, 200)}; expected ${statuses.join(' or ')}`,
        );
      } else if (code !== (answer.status === 422 ? 'unprocessable' : 'invalid_request')) {
        failures.push(`${why}: ${JSON.stringify(url)} answered ${answer.status} with code ${String(code)}`);
      } else if (answer.status === 422 && expected && !expected.some((words) => message.includes(words))) {
        failures.push(
          `${why}: ${JSON.stringify(url)} answered 422 without saying "${expected.join('" or "')}": ${JSON.stringify(message)}`,
        );
      }
      const named = addressesIn(message).filter((address) => !url.toLowerCase().includes(address.toLowerCase()));
      if (named.length)
        failures.push(
          `${why}: ${JSON.stringify(url)} answered a message naming ${named.join(', ')}, which the URL does not hold: ${JSON.stringify(message)}`,
        );
    }
    expect(failures).toEqual([]);
  });

  it('never connects to a listener on loopback', async () => {
    await new Promise((r) => setTimeout(r, 1000));
    expect(connections).toBe(0);
  });

  it('keeps the invariants on every answer of this suite', () => {
    expect(h.alive()).toBe(true);
    expect(h.ledger.groupKeys()).toEqual([]);
  });
});
