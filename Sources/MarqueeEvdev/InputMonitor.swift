import CEvdev
import CLinux
import Foundation
import Glibc
import MarqueeCore
import Synchronization

/// Reads keypads and remotes as sources on the control-plane loop and hands what their keys mean
/// to `deliver`, the player's one command path.
///
/// Every open device is a source, and so are an inotify watch on /dev/input (devices plugged in or
/// out while playing) and a timer that runs only while a node that appeared before udev made it
/// readable is retried. Each device has its own KeyCommandInterpreter: key state, autorepeat and
/// SYN_DROPPED recovery are per device, and a number typed on one keypad is not finished by
/// another's enter key. Numeric entry expires by the next key's kernel timestamp, so no timer is
/// needed for it. Stop rules: a device that vanishes or fails its read is closed and its source
/// ends; the watch ends when /dev/input goes; `stop` removes every source and closes the devices.
///
/// Every problem (a node that cannot be opened or grabbed, a device that vanishes, a configured
/// device that is missing) is one log line; playback never waits on input.
public final class InputMonitor: @unchecked Sendable {
    public struct Options: Sendable {
        public var selection: InputDeviceSelection
        public var keyMap: KeyMap
        /// Take each device exclusively (EVIOCGRAB) so keys do not also reach the console.
        public var grab: Bool
        public var directory: String
        public var entryTimeout: MediaTime
        /// `input.lockdown`: every keyboard is opened and grabbed too, bound keys or not, so its
        /// console keys (VT switches, Ctrl+Alt+Del, SysRq) reach neither the console nor the kernel.
        public var lockdown: Bool

        public init(selection: InputDeviceSelection, keyMap: KeyMap, grab: Bool, directory: String = "/dev/input",
                    entryTimeout: MediaTime = MediaTime(seconds: 3), lockdown: Bool = false) {
            self.selection = selection
            self.keyMap = keyMap
            self.grab = grab || lockdown
            self.lockdown = lockdown
            self.directory = directory
            self.entryTimeout = entryTimeout
        }
    }

    public enum LogLevel: Sendable { case info, warning }

    /// A node that appeared but could not be opened yet is retried this often, for this long:
    /// udev creates it root-only and fixes group and mode a moment later.
    static let retryInterval: Duration = .milliseconds(100)
    static let retryWindow: Duration = .seconds(3)

    private let options: Options
    private let events: ControlPlaneLoop
    private let deliver: @Sendable (ControlAction, CommandSource) -> Void
    private let log: @Sendable (LogLevel, String) -> Void
    /// Hears the digits typed so far on a keypad whenever they change (nil: the entry is over),
    /// for the on-screen display.
    private let entryChanged: @Sendable (String?) -> Void
    /// The digits last told to `entryChanged` (input thread).
    private var reportedEntry: String?

    // Owned by start() until its sources are registered, then by the loop's thread alone.
    private var reading: [String: ReadingDevice] = [:] {
        didSet {
            let devices = reading.map { OpenInputDevice(path: $0.key, name: $0.value.device.info.name) }.sorted { $0.path < $1.path }
            publishedLock.withLock { published = devices }
        }
    }
    /// The devices being read, for any thread to ask (the control socket's status).
    private let publishedLock = NSLock()
    private var published: [OpenInputDevice] = []

    /// The keypads and remotes being read now, by node path.
    public var openDevices: [OpenInputDevice] { publishedLock.withLock { published } }
    /// Opened and found not to be wanted; not reconsidered until the node is replaced.
    private var passedOver: Set<String> = []
    /// Could not be opened; tried again (silently) when udev changes the node's attributes.
    private var unopenable: Set<String> = []
    /// Appeared recently and could not be opened yet: the deadline to keep retrying until.
    private var retrying: [String: ContinuousClock.Instant] = [:]
    private var inotifyDescriptor: Int32 = -1
    /// The directory watch's and the retry timer's sources.
    private var watchSource: EventSourceID?
    private var retryTimer: EventSourceID?

    /// Every source of this monitor, for `stop` on another thread; nil once stopped.
    private let sources = Mutex<Set<EventSourceID>?>([])

    public init(options: Options, events: ControlPlaneLoop, deliver: @escaping @Sendable (ControlAction, CommandSource) -> Void,
                log: @escaping @Sendable (LogLevel, String) -> Void,
                entryChanged: @escaping @Sendable (String?) -> Void = { _ in }) {
        self.options = options
        self.events = events
        self.deliver = deliver
        self.log = log
        self.entryChanged = entryChanged
    }

    /// Opens the devices present now (so their lines come before playback's), then reads them on
    /// the loop. On a machine without /dev/input it says so once and does nothing more.
    public func start() {
        let directory = options.directory
        guard FileManager.default.fileExists(atPath: directory) else {
            log(.info, "input: \(directory) does not exist; no keys will be read")
            return
        }
        inotifyDescriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if inotifyDescriptor >= 0, inotify_add_watch(inotifyDescriptor, directory, DirectoryChange.watchMask) < 0 {
            log(.warning, "input: cannot watch \(directory) for devices plugged in later: \(String(cString: strerror(errno)))")
            close(inotifyDescriptor)
            inotifyDescriptor = -1
        }
        let found = scan(reportingFailures: true)
        for entry in options.selection.unmatchedEntries(among: found, resolve: Self.resolve) {
            log(.warning, "input: no device matches '\(entry)'; it is read when it appears")
        }
        if reading.isEmpty, case .auto = options.selection {
            log(.info, "input: no device has a mapped key yet; keypads and remotes plugged in later are read")
        }
        if inotifyDescriptor >= 0 {
            let descriptor = inotifyDescriptor
            watchSource = register(events.watch(descriptor, named: "input: \(directory)", owning: true, ended: { [self] _ in
                inotifyDescriptor = -1
            }) { [self] _ in readDirectoryChanges() })
        }
        retryTimer = events.timer(named: "input: retry", handler: { [self] in retryAppearedNodes() }).flatMap(register)
        // Devices found before the sources existed are read from now on.
        for path in reading.keys.sorted() { watchDevice(path) }
    }

    /// Stops reading and closes (and so ungrabs) every device; returns once that is done.
    public func stop() {
        guard let registered = sources.withLock({ current -> Set<EventSourceID>? in
            defer { current = nil }
            return current
        }) else { return }
        // The watch and the timer first: after them no device is added.
        for source in [watchSource, retryTimer].compactMap({ $0 }) { events.remove(source, waiting: true) }
        for source in registered { events.remove(source, waiting: true) }
        // No handler of this monitor runs any more.
        reading = [:]
        if inotifyDescriptor >= 0 { close(inotifyDescriptor) }
        inotifyDescriptor = -1
    }

    /// Notes a source as this monitor's, so `stop` removes it.
    private func register(_ source: EventSourceID) -> EventSourceID? {
        sources.withLock { $0?.insert(source) }
        return source
    }

    /// Reads `path`'s keys on the loop from now on.
    private func watchDevice(_ path: String) {
        guard let device = reading[path], device.source == nil else { return }
        let descriptor = device.device.fileDescriptor
        device.source = register(events.watch(descriptor, named: "input: \(path)") { [self] readiness in
            readKeys(from: path, readiness: readiness)
        })
    }

    // MARK: On the loop's thread

    private func readKeys(from path: String, readiness: EventReadiness) -> EventSourceStep {
        guard let device = reading[path] else { return .end }
        let failure: SystemError?
        switch device.device.read() {
        case .reports(let reports):
            handle(reports, from: device)
            // Hung up without an error from read: nothing more will come; do not poll it in a loop.
            let hungUp = !readiness.isDisjoint(with: [.hungUp, .failed])
            failure = hungUp ? SystemError(code: ENODEV, operation: "epoll", path: path) : nil
        case .failed(let reports, let error):
            handle(reports, from: device)
            failure = error
        }
        guard let failure else { return .keep }
        closeDevice(path)
        if failure.code == ENODEV {
            log(.info, "input: removed \(path) \(Self.quoted(device.device.info.name))")
        } else {
            log(.warning, "input: removed \(path) \(Self.quoted(device.device.info.name)) after an error: \(failure)")
        }
        return .keep
    }

    private func handle(_ reports: [EvdevReport], from device: ReadingDevice) {
        let info = device.device.info
        for report in reports {
            switch report {
            case .eventsDropped:
                device.interpreter.eventsDropped()
                log(.info, "input: \(info.path) \(Self.quoted(info.name)) overflowed (SYN_DROPPED); key states resynchronised")
            case .key(let event):
                for intent in device.interpreter.interpret(event) {
                    deliver(ControlAction(intent),
                            .key(name: InputDeviceInfo.keyName(forCode: event.code), device: info.name, path: info.path))
                }
                let entry = device.interpreter.pendingEntry
                if entry != reportedEntry {
                    reportedEntry = entry
                    entryChanged(entry)
                }
            }
        }
    }

    private func readDirectoryChanges() -> EventSourceStep {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while inotifyDescriptor >= 0 {
            let count = buffer.withUnsafeMutableBytes { read(inotifyDescriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return .keep }
            for change in DirectoryChange.parse(buffer.prefix(count)) {
                if apply(change) == .end { return .end }
            }
        }
        return .end
    }

    private func apply(_ change: DirectoryChange) -> EventSourceStep {
        let path = options.directory + "/" + change.name
        switch change.kind {
        case .appeared where EventNodeName.number(of: change.name) != nil:
            forget(path, announcing: true)
            if !consider(path, reportingFailure: false) { startRetrying(path) }
        case .attributesChanged where unopenable.contains(path) || retrying[path] != nil:
            if consider(path, reportingFailure: false) {
                unopenable.remove(path)
                retrying[path] = nil
            }
        case .disappeared:
            forget(path, announcing: true)
        case .overflowed:
            // Some changes were lost: compare with what is there now.
            let present = Set(Self.eventNodes(in: options.directory).map { options.directory + "/" + $0 })
            for path in reading.keys where !present.contains(path) { forget(path, announcing: true) }
            _ = scan(reportingFailures: false)
        case .watchEnded:
            log(.warning, "input: \(options.directory) was removed; devices plugged in later are not read")
            return .end
        default:
            break
        }
        return .keep
    }

    /// Tries `path` again every `retryInterval` until `retryWindow` has passed.
    private func startRetrying(_ path: String) {
        let wasIdle = retrying.isEmpty
        retrying[path] = .now + Self.retryWindow
        if wasIdle, let retryTimer { events.rearm(retryTimer, after: Self.retryInterval, every: Self.retryInterval) }
    }

    private func retryAppearedNodes() {
        for (path, deadline) in retrying {
            let reportNow = ContinuousClock.now >= deadline
            if consider(path, reportingFailure: reportNow) || reportNow { retrying[path] = nil }
        }
        // Nothing left to retry: the timer sleeps until a node appears again.
        if retrying.isEmpty, let retryTimer { events.rearm(retryTimer, after: nil) }
    }

    // MARK: Opening and closing

    /// Opens every event node not yet known; returns what the opened nodes are (selected or not).
    private func scan(reportingFailures: Bool) -> [InputDeviceInfo] {
        var found: [InputDeviceInfo] = []
        for name in Self.eventNodes(in: options.directory) {
            let path = options.directory + "/" + name
            if let device = reading[path] {
                found.append(device.device.info)
                continue
            }
            guard !passedOver.contains(path) else { continue }
            _ = consider(path, reportingFailure: reportingFailures)
            if let device = reading[path] { found.append(device.device.info) }
        }
        return found
    }

    /// Opens `path` and keeps it if the selection wants it. False when it could not be opened (a
    /// node udev has not settled yet, or one this user may not read); that failure is logged when
    /// `reportingFailure`, and the node is then left for an attribute change to retry.
    private func consider(_ path: String, reportingFailure: Bool) -> Bool {
        let device: InputDevice
        do {
            device = try InputDevice(path: path)
        } catch {
            if error.code == ENOENT {
                // Gone again before it could be opened: nothing to retry.
                retrying[path] = nil
                unopenable.remove(path)
                return true
            }
            if reportingFailure {
                log(.warning, "input: cannot read \(path): \(error.message)")
                unopenable.insert(path)
            }
            return false
        }
        let info = device.info
        unopenable.remove(path)
        guard options.selection.accepts(info, lockdown: options.lockdown, resolve: Self.resolve) else {
            passedOver.insert(path)
            let reason = if case .auto = options.selection { "none of its keys is mapped" } else { "not one of input.devices" }
            log(.info, "input: passing over \(path) \(Self.quoted(info.name)): \(reason)")
            return true
        }
        var notes = ["\(info.mappedKeyNames(in: options.keyMap).count) mapped keys"]
        if options.grab {
            do {
                try device.grab()
                notes.append("grabbed")
            } catch {
                log(.warning, "input: cannot grab \(path) \(Self.quoted(info.name)) (\(error.message)); its keys also reach other readers")
            }
        }
        reading[path] = ReadingDevice(device: device,
                                      interpreter: KeyCommandInterpreter(keyMap: options.keyMap, entryTimeout: options.entryTimeout))
        log(.info, "input: added \(path) \(Self.quoted(info.name)) (\(notes.joined(separator: ", ")))")
        // At start the sources come after the scan; later (on the loop) at once.
        if watchSource != nil || retryTimer != nil { watchDevice(path) }
        return true
    }

    /// Drops whatever is known about a node that was removed or replaced.
    private func forget(_ path: String, announcing: Bool) {
        passedOver.remove(path)
        unopenable.remove(path)
        retrying[path] = nil
        if let device = closeDevice(path), announcing {
            log(.info, "input: removed \(path) \(Self.quoted(device.device.info.name))")
        }
    }

    /// Ends the device's source, then closes it (the kernel ungrabs it).
    @discardableResult
    private func closeDevice(_ path: String) -> ReadingDevice? {
        guard let device = reading.removeValue(forKey: path) else { return nil }
        if let source = device.source {
            sources.withLock { _ = $0?.remove(source) }
            events.remove(source)
        }
        return device
    }

    // MARK: Helpers

    private static func eventNodes(in directory: String) -> [String] {
        EventNodeName.sortedEventNodes((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
    }

    /// The node a configured path names (following /dev/input/by-id/... symlinks), nil if none.
    @Sendable static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func quoted(_ name: String) -> String { "\"\(name)\"" }
}

/// An open device and the interpreter that turns its keys into commands.
private final class ReadingDevice {
    let device: InputDevice
    var interpreter: KeyCommandInterpreter
    /// Its source on the loop, once registered.
    var source: EventSourceID?

    init(device: InputDevice, interpreter: KeyCommandInterpreter) {
        self.device = device
        self.interpreter = interpreter
    }
}

/// A device the monitor reads: its node and the kernel's name for it.
public struct OpenInputDevice: Sendable, Equatable {
    public let path: String
    public let name: String
}
