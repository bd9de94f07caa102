import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { AfcServer, type AfcFileSystem } from './afc.js';
import type { PairingCertificates } from './certs.js';
import { asDict, decodePlist, encodePlist, isBinaryPlist, LengthFramer, lengthFrame, type PlistDict, type PlistValue } from './codec.js';
import { bundleIdOfIpa } from './ipa.js';
import { defaultPeerHealth, domainValues, SESSION_DOMAINS, type PeerHealth } from './lockdown-domains.js';

/**
 * The device side of usbmuxd and lockdownd, over TCP on loopback (what `USBMUXD_SOCKET_ADDRESS`
 * selects): usbmuxd's plist protocol (ListDevices, Listen with Attached/Detached, Connect, ReadPairRecord,
 * ReadBUID), lockdown on device port 62078 (QueryType, GetValue of the default domain and of the battery and
 * disk-usage domains, whose values the test scripts, StartSession with TLS, StartService,
 * StopSession, Goodbye), and the services a session starts: syslog_relay, screenshotr (DeviceLink),
 * installation_proxy, afc, webinspector. Plain TCP services (an echo server) sit on other device ports.
 * It answers libimobiledevice's tools (XML plists) and appium-ios-device (binary plists) alike.
 */

export const LOCKDOWN_PORT = 62078;
const USBMUX_RESULT = { OK: 0, BADCOMMAND: 1, BADDEV: 2, CONNREFUSED: 3 } as const;

export interface PeerApp {
  bundleId: string;
  name: string;
  version: string;
  type: 'User' | 'System';
}

export interface PeerPage {
  id: number;
  title: string;
  url: string;
}

export interface PeerDeviceOptions {
  udid: string;
  name: string;
  productType: string;
  productVersion: string;
  deviceClass: 'iPhone' | 'iPad';
  hardwareModel?: string;
  buildVersion?: string;
  /** What screenshotr answers. */
  screenshot: Buffer;
  apps?: PeerApp[];
  /** Pages Safari announces through the web inspector. */
  safariPages?: PeerPage[];
  /** The battery and storage lockdown answers (`lockdown-domains.ts`; changed at run time through `device.health`). */
  health?: Partial<PeerHealth>;
}

interface WebInspectorClient {
  send(selector: string, argument: PlistDict): void;
}

/** One test iPhone: its lockdown values, apps, AFC media folder and services, and what it received. */
export class PeerDevice extends EventEmitter {
  readonly udid: string;
  deviceId = 0;
  readonly apps = new Map<string, PeerApp>();
  /** The AFC media area (`/var/mobile/Media`): paths to contents; folders as null. */
  readonly files: AfcFileSystem = new Map([['/', null]]);
  readonly record = {
    services: [] as string[],
    installs: [] as { packagePath: string; bytes: Buffer; bundleId: string; options: PlistValue }[],
    uninstalls: [] as string[],
    screenshots: 0,
    sessions: 0,
    /** Every GetValue: its domain and key (null when left out) and whether it came inside a session. */
    getValues: [] as { domain: string | null; key: string | null; inSession: boolean }[],
  };
  /** The battery and storage the device answers; the test changes them at any time. */
  readonly health: PeerHealth;
  private readonly syslogClients = new Set<Socket | TLSSocket>();
  /** App containers (what house_arrest vends), by bundle id. */
  readonly containers = new Map<string, AfcFileSystem>();
  /** Plain TCP services on device ports (like a debug server an app opened). */
  readonly tcpServices = new Map<number, (socket: Duplex) => void>();

  constructor(readonly options: PeerDeviceOptions) {
    super();
    this.udid = options.udid;
    this.health = { ...defaultPeerHealth(), ...options.health };
    for (const app of options.apps ?? []) this.addApp(app);
  }

  /** Installs an app: user apps get a container with the usual top folders. */
  addApp(app: PeerApp): void {
    this.apps.set(app.bundleId, app);
    if (app.type === 'User' && !this.containers.has(app.bundleId)) {
      this.containers.set(app.bundleId, new Map([['/', null], ['/Documents', null], ['/Library', null], ['/tmp', null]]));
    }
  }

  removeApp(bundleId: string): void {
    this.apps.delete(bundleId);
    this.containers.delete(bundleId);
  }

  /** Lockdown's values in the default domain. */
  values(): PlistDict {
    const o = this.options;
    return {
      DeviceName: o.name,
      DeviceClass: o.deviceClass,
      ProductType: o.productType,
      ProductVersion: o.productVersion,
      ProductName: 'iPhone OS',
      BuildVersion: o.buildVersion ?? '21A000',
      HardwareModel: o.hardwareModel ?? 'D00AP',
      UniqueDeviceID: o.udid,
      SerialNumber: `SN${o.udid.slice(-8).toUpperCase()}`,
      CPUArchitecture: 'arm64e',
      ProtocolVersion: '2',
      ActivationState: 'Activated',
      DeviceColor: '#000000',
      TimeZone: 'UTC',
      TimeZoneOffsetFromUTC: 0,
      TimeIntervalSince1970: Math.floor(Date.now() / 1000),
    };
  }

  /** Sends one syslog line to every client of syslog_relay. */
  emitSyslog(line: string): void {
    for (const c of this.syslogClients) c.write(`${line}\n\0`);
  }

  get syslogClientCount(): number {
    return this.syslogClients.size;
  }

  addSyslogClient(socket: Socket | TLSSocket): void {
    this.syslogClients.add(socket);
    socket.on('close', () => {
      this.syslogClients.delete(socket);
      this.emit('syslog-clients', this.syslogClients.size);
    });
    this.emit('syslog-clients', this.syslogClients.size);
  }
}

export interface PeerOptions {
  certs: PairingCertificates;
  /** When false the peer has no pair record: sessions (and every service) are refused. */
  paired?: boolean;
}

/** The usbmuxd of the test devices. */
export class UsbmuxdPeer {
  private server: Server | null = null;
  private readonly devices = new Map<number, PeerDevice>();
  private readonly listeners = new Set<(message: PlistDict) => void>();
  private readonly sockets = new Set<Socket>();
  private nextDeviceId = 1;
  private nextServicePort = 49_152;
  readonly buid = randomUUID().toUpperCase();
  readonly hostId = randomUUID().toUpperCase();
  /** Dynamic service ports a StartService opened, per device: port -> service. */
  private readonly servicePorts = new Map<string, string>();
  port = 0;

  constructor(private readonly options: PeerOptions) {}

  async start(): Promise<number> {
    const server = createServer((socket) => this.client(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this.port;
  }

  /** `host:port`, the form of `USBMUXD_SOCKET_ADDRESS`. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  attach(device: PeerDevice): void {
    device.deviceId = this.nextDeviceId++;
    this.devices.set(device.deviceId, device);
    for (const l of this.listeners) l(this.attachedMessage(device));
  }

  detach(udid: string): void {
    for (const [id, device] of this.devices) {
      if (device.udid !== udid) continue;
      this.devices.delete(id);
      for (const l of this.listeners) l({ MessageType: 'Detached', DeviceID: id });
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The pair record a host keeps for the device (what ReadPairRecord answers). */
  pairRecord(udid: string): PlistDict {
    const c = this.options.certs;
    return {
      DeviceCertificate: c.deviceCert,
      HostCertificate: c.hostCert,
      HostPrivateKey: c.hostKey,
      RootCertificate: c.rootCert,
      RootPrivateKey: c.rootKey,
      HostID: this.hostId,
      SystemBUID: this.buid,
      WiFiMACAddress: '00:00:00:00:00:00',
      UDID: udid,
    };
  }

  private attachedMessage(device: PeerDevice): PlistDict {
    return {
      MessageType: 'Attached',
      DeviceID: device.deviceId,
      Properties: {
        ConnectionSpeed: 480_000_000,
        ConnectionType: 'USB',
        DeviceID: device.deviceId,
        LocationID: 0x1100000 + device.deviceId,
        ProductID: 0x12a8,
        SerialNumber: device.udid,
        USBSerialNumber: device.udid.replace(/-/g, ''),
      },
    };
  }

  // ---- usbmuxd -------------------------------------------------------------------------------------

  private client(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let listening: ((message: PlistDict) => void) | null = null;
    const send = (tag: number, message: PlistDict) => {
      const body = encodePlist(message, false);
      const header = Buffer.alloc(16);
      header.writeUInt32LE(16 + body.length, 0);
      header.writeUInt32LE(1, 4);
      header.writeUInt32LE(8, 8);
      header.writeUInt32LE(tag, 12);
      socket.write(Buffer.concat([header, body]));
    };
    const result = (tag: number, n: number) => send(tag, { MessageType: 'Result', Number: n });
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 16) {
        const length = buffer.readUInt32LE(0);
        if (buffer.length < length) return;
        const tag = buffer.readUInt32LE(12);
        const type = buffer.readUInt32LE(8);
        const body = buffer.subarray(16, length);
        buffer = buffer.subarray(length);
        if (type !== 8) {
          result(tag, USBMUX_RESULT.BADCOMMAND);
          continue;
        }
        const message = asDict(decodePlist(body)) ?? {};
        switch (message.MessageType) {
          case 'ListDevices':
            send(tag, { DeviceList: [...this.devices.values()].map((d) => this.attachedMessage(d)) });
            break;
          case 'Listen':
            result(tag, USBMUX_RESULT.OK);
            for (const d of this.devices.values()) send(0, this.attachedMessage(d));
            listening = (m) => send(0, m);
            this.listeners.add(listening);
            socket.on('close', () => listening && this.listeners.delete(listening));
            break;
          case 'ReadBUID':
            send(tag, { BUID: this.buid });
            break;
          case 'ReadPairRecord': {
            const device = [...this.devices.values()].find((d) => d.udid === message.PairRecordID);
            if (!device || this.options.paired === false) result(tag, USBMUX_RESULT.BADDEV);
            else send(tag, { PairRecordData: encodePlist(this.pairRecord(device.udid), false) });
            break;
          }
          case 'SavePairRecord':
          case 'DeletePairRecord':
            result(tag, USBMUX_RESULT.OK);
            break;
          case 'Connect': {
            const device = this.devices.get(Number(message.DeviceID));
            const raw = Number(message.PortNumber);
            const port = ((raw & 0xff) << 8) | ((raw >> 8) & 0xff);
            if (!device) {
              result(tag, USBMUX_RESULT.BADDEV);
              break;
            }
            const handler = this.portHandler(device, port);
            if (!handler) {
              result(tag, USBMUX_RESULT.CONNREFUSED);
              break;
            }
            result(tag, USBMUX_RESULT.OK);
            // From here on the socket is the device port.
            socket.off('data', onData);
            const rest = buffer;
            buffer = Buffer.alloc(0);
            if (rest.length > 0) socket.unshift(rest);
            handler(socket);
            return;
          }
          default:
            result(tag, USBMUX_RESULT.BADCOMMAND);
        }
      }
    };
    socket.on('data', onData);
  }

  private portHandler(device: PeerDevice, port: number): ((socket: Socket) => void) | null {
    if (port === LOCKDOWN_PORT) return (s) => this.lockdown(device, s);
    const service = this.servicePorts.get(`${device.udid}:${port}`);
    if (service) {
      // A service port takes one connection, as on a device.
      this.servicePorts.delete(`${device.udid}:${port}`);
      return (s) => this.service(device, service, s);
    }
    const tcp = device.tcpServices.get(port);
    return tcp ?? null;
  }

  // ---- lockdown ------------------------------------------------------------------------------------

  private lockdown(device: PeerDevice, socket: Socket): void {
    let session: string | null = null;
    let channel: Socket | TLSSocket = socket;
    const reply = (binary: boolean, message: PlistDict) => channel.write(lengthFrame(encodePlist(message, binary)));
    const handle = (body: Buffer) => {
      const binary = isBinaryPlist(body);
      const request = asDict(decodePlist(body)) ?? {};
      const name = String(request.Request ?? '');
      const answer = (fields: PlistDict) => reply(binary, { Request: name, ...fields });
      switch (name) {
        case 'QueryType':
          answer({ Type: 'com.apple.mobile.lockdown' });
          return;
        case 'GetValue': {
          const domain = typeof request.Domain === 'string' ? request.Domain : null;
          const key = typeof request.Key === 'string' ? request.Key : null;
          device.record.getValues.push({ domain, key, inSession: session !== null });
          const values = device.values();
          if (domain !== null) {
            if (SESSION_DOMAINS.has(domain) && !session) {
              answer({ Domain: domain, ...(key ? { Key: key } : {}), Error: 'NoRunningSession' });
              return;
            }
            const inDomain = domainValues(device.health, domain);
            const value = inDomain && key ? inDomain[key] : inDomain;
            if (value === null || value === undefined) answer({ Domain: domain, ...(key ? { Key: key } : {}), Error: 'MissingValue' });
            else answer({ Domain: domain, ...(key ? { Key: key } : {}), Value: value });
            return;
          }
          if (key === null) {
            answer({ Value: values });
            return;
          }
          if (values[key] === undefined) answer({ Key: key, Error: 'MissingValue' });
          else answer({ Key: key, Value: values[key]! });
          return;
        }
        case 'ValidatePair':
          answer({});
          return;
        case 'StartSession': {
          if (this.options.paired === false || request.HostID !== this.hostId) {
            answer({ Error: 'InvalidHostID' });
            return;
          }
          session = randomUUID().toUpperCase();
          device.record.sessions += 1;
          answer({ SessionID: session, EnableSessionSSL: true });
          // The session continues under TLS on the same connection, the device being the TLS server.
          socket.off('data', onRaw);
          const tls = new TLSSocket(socket, { isServer: true, key: this.options.certs.deviceKey, cert: this.options.certs.deviceCert, requestCert: false });
          tls.on('error', () => socket.destroy());
          const framer = new LengthFramer(handle);
          tls.on('data', (chunk: Buffer) => framer.push(chunk));
          // libimobiledevice ends TLS after StopSession and would continue in the clear; the peer ends there.
          tls.on('end', () => socket.destroy());
          channel = tls;
          return;
        }
        case 'StopSession':
          session = null;
          answer({});
          return;
        case 'StartService': {
          const service = String(request.Service ?? '');
          if (!session) {
            answer({ Service: service, Error: 'NoRunningSession' });
            return;
          }
          if (!SERVICES.has(service)) {
            answer({ Service: service, Error: 'InvalidService' });
            return;
          }
          const port = this.nextServicePort++;
          this.servicePorts.set(`${device.udid}:${port}`, service);
          device.record.services.push(service);
          answer({ Service: service, Port: port, EnableServiceSSL: false });
          return;
        }
        case 'Goodbye':
          answer({ Result: 'Success' });
          channel.end();
          return;
        default:
          answer({ Error: 'InvalidRequest' });
      }
    };
    const rawFramer = new LengthFramer(handle);
    const onRaw = (chunk: Buffer) => rawFramer.push(chunk);
    socket.on('data', onRaw);
  }

  // ---- services ------------------------------------------------------------------------------------

  private service(device: PeerDevice, name: string, socket: Socket): void {
    switch (name) {
      case 'com.apple.syslog_relay':
        device.addSyslogClient(socket);
        // The relay ignores what the client sends (appium-ios-device sends "start").
        socket.on('data', () => undefined);
        return;
      case 'com.apple.mobile.screenshotr':
        return screenshotr(device, socket);
      case 'com.apple.mobile.installation_proxy':
        return installationProxy(device, socket);
      case 'com.apple.afc':
        new AfcServer(device.files, socket);
        return;
      case 'com.apple.webinspector':
        return webInspector(device, socket);
      case 'com.apple.mobile.house_arrest':
        return houseArrest(device, socket);
      default:
        socket.destroy();
    }
  }
}

const SERVICES = new Set(['com.apple.syslog_relay', 'com.apple.mobile.screenshotr', 'com.apple.mobile.installation_proxy', 'com.apple.afc', 'com.apple.webinspector', 'com.apple.mobile.house_arrest']);

/** house_arrest: one plist request vends an app's container (or its Documents); the connection then speaks AFC there. */
function houseArrest(device: PeerDevice, socket: Socket): void {
  const framer = new LengthFramer((body) => {
    const binary = isBinaryPlist(body);
    const request = asDict(decodePlist(body)) ?? {};
    const container = device.containers.get(String(request.Identifier ?? ''));
    const reply = (value: PlistDict) => socket.write(lengthFrame(encodePlist(value, binary)));
    if ((request.Command !== 'VendContainer' && request.Command !== 'VendDocuments') || !container) {
      reply({ Error: 'ApplicationLookupFailed' });
      return;
    }
    reply({ Status: 'Complete' });
    socket.off('data', onData);
    new AfcServer(container, socket);
  });
  const onData = (chunk: Buffer) => framer.push(chunk);
  socket.on('data', onData);
  socket.on('error', () => undefined);
}

/** A plist service connection: framed plists in, framed plists out (binary unless the client spoke XML). */
function plistChannel(socket: Socket, onMessage: (message: PlistValue, send: (value: PlistValue) => void) => void, defaultBinary = true): (value: PlistValue) => void {
  let binary = defaultBinary;
  const send = (value: PlistValue) => socket.write(lengthFrame(encodePlist(value, binary)));
  const framer = new LengthFramer((body) => {
    binary = isBinaryPlist(body);
    onMessage(decodePlist(body), send);
  });
  socket.on('data', (chunk: Buffer) => framer.push(chunk));
  socket.on('error', () => undefined);
  return send;
}

/** screenshotr speaks DeviceLink: a version exchange, then ScreenShotRequest / ScreenShotReply. */
function screenshotr(device: PeerDevice, socket: Socket): void {
  const send = plistChannel(socket, (message, reply) => {
    if (!Array.isArray(message)) return;
    if (message[0] === 'DLMessageVersionExchange' && message[1] === 'DLVersionsOk') reply(['DLMessageDeviceReady']);
    else if (message[0] === 'DLMessageProcessMessage' && asDict(message[1] ?? null)?.MessageType === 'ScreenShotRequest') {
      device.record.screenshots += 1;
      reply(['DLMessageProcessMessage', { MessageType: 'ScreenShotReply', ScreenShotData: device.options.screenshot }]);
    } else if (message[0] === 'DLMessageDisconnect') socket.end();
  });
  send(['DLMessageVersionExchange', 300, 0]);
}

function appAttributes(app: PeerApp): PlistDict {
  return { CFBundleIdentifier: app.bundleId, CFBundleDisplayName: app.name, CFBundleName: app.name, CFBundleShortVersionString: app.version, CFBundleVersion: app.version, ApplicationType: app.type };
}

/** installation_proxy: Browse, Lookup, Install (a package AFC put in the media area), Uninstall. */
function installationProxy(device: PeerDevice, socket: Socket): void {
  plistChannel(socket, (value, send) => {
    const request = asDict(value);
    if (!request) return;
    const options = asDict(request.ClientOptions ?? null) ?? {};
    const type = typeof options.ApplicationType === 'string' ? options.ApplicationType : 'Any';
    const apps = [...device.apps.values()].filter((a) => type === 'Any' || a.type === type);
    switch (request.Command) {
      case 'Browse': {
        const list = apps.map(appAttributes);
        send({ CurrentIndex: 0, CurrentAmount: list.length, Total: list.length, CurrentList: list, Status: 'BrowsingApplications' });
        send({ Status: 'Complete' });
        return;
      }
      case 'Lookup': {
        const ids = Array.isArray(options.BundleIDs) ? options.BundleIDs.map(String) : null;
        const found = apps.filter((a) => !ids || ids.includes(a.bundleId));
        send({ LookupResult: Object.fromEntries(found.map((a) => [a.bundleId, appAttributes(a)])), Status: 'Complete' });
        return;
      }
      case 'Install':
      case 'Upgrade': {
        const packagePath = String(request.PackagePath ?? '');
        const bytes = device.files.get(`/${packagePath.replace(/^\/+/, '')}`);
        if (!bytes) {
          send({ Error: 'PackageInspectionFailed', ErrorDescription: `No package at ${packagePath}` });
          return;
        }
        void bundleIdOfIpa(bytes).then(
          (info) => {
            device.addApp({ bundleId: info.bundleId, name: info.name, version: info.version, type: 'User' });
            device.record.installs.push({ packagePath, bytes: Buffer.from(bytes), bundleId: info.bundleId, options });
            send({ PercentComplete: 40, Status: 'CopyingApplication' });
            send({ PercentComplete: 90, Status: 'InstallingApplication' });
            send({ Status: 'Complete' });
          },
          (err: Error) => send({ Error: 'PackageInspectionFailed', ErrorDescription: err.message }),
        );
        return;
      }
      case 'Uninstall': {
        const id = String(request.ApplicationIdentifier ?? '');
        device.record.uninstalls.push(id);
        device.removeApp(id);
        send({ PercentComplete: 50, Status: 'RemovingApplication' });
        send({ Status: 'Complete' });
        return;
      }
      default:
        send({ Error: 'UnknownCommand' });
    }
  });
}

/** The web inspector's RPC: identify, report the connected applications, answer listings of their pages. */
function webInspector(device: PeerDevice, socket: Socket): void {
  const safari = 'PID:4242';
  plistChannel(socket, (value, send) => {
    const message = asDict(value);
    if (!message || typeof message.__selector !== 'string') return; // iOS 11+ clients send a filler after each message
    const argument = asDict(message.__argument ?? null) ?? {};
    const client: WebInspectorClient = { send: (selector, arg) => send({ __selector: selector, __argument: arg }) };
    switch (message.__selector) {
      case '_rpc_reportIdentifier:':
        client.send('_rpc_reportCurrentState:', { WIRAutomationAvailabilityKey: 'WIRAutomationAvailabilityNotAvailable' });
        client.send('_rpc_reportConnectedApplicationList:', {
          WIRApplicationDictionaryKey: {
            [safari]: {
              WIRApplicationIdentifierKey: safari,
              WIRApplicationNameKey: 'Safari',
              WIRApplicationBundleIdentifierKey: 'com.apple.mobilesafari',
              WIRIsApplicationProxyKey: false,
              WIRIsApplicationActiveKey: 1,
              WIRIsApplicationReadyKey: true,
            },
          },
        });
        return;
      case '_rpc_forwardGetListing:': {
        if (argument.WIRApplicationIdentifierKey !== safari) return;
        const listing: PlistDict = {};
        for (const page of device.options.safariPages ?? []) {
          listing[String(page.id)] = { WIRPageIdentifierKey: page.id, WIRTitleKey: page.title, WIRURLKey: page.url, WIRTypeKey: 'WIRTypeWebPage' };
        }
        client.send('_rpc_applicationSentListing:', { WIRApplicationIdentifierKey: safari, WIRListingKey: listing });
        return;
      }
      default:
        return;
    }
  });
}
