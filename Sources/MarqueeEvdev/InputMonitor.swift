import CEvdev
import CLinux
import Foundation
import Glibc
import MarqueeCore

/// Reads keypads and remotes on one dedicated thread and hands what their keys mean to `deliver`,
/// the player's one command path.
///
/// The thread blocks in poll() over every open device, an inotify watch on /dev/input (devices
/// plugged in or out while playing) and an eventfd that `stop()` signals; it wakes on its own
/// only to retry a node that appeared before udev made it readable. Each device has its own
/// KeyCommandInterpreter: key state, autorepeat and SYN_DROPPED recovery are per device, and a
/// number typed on one keypad is not finished by another's enter key. Numeric entry expires by
/// the next key's kernel timestamp, so no timer is needed for it.
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
    private let deliver: @Sendable (ControlAction, CommandSource) -> Void
    private let log: @Sendable (LogLevel, String) -> Void
    /// Hears the digits typed so far on a keypad whenever they change (nil: the entry is over),
    /// for the on-screen display.
    private let entryChanged: @Sendable (String?) -> Void
    /// The digits last told to `entryChanged` (input thread).
    private var reportedEntry: String?

    // Owned by start() until the thread starts, then by the input thread alone.
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
    private var lastRetry = ContinuousClock.now
    private var inotifyDescriptor: Int32 = -1
    private var wakeDescriptor: Int32 = -1

    private let lifecycle = MonotonicCondition()
    private var threadRunning = false
    private var stopped = false

    public init(options: Options, deliver: @escaping @Sendable (ControlAction, CommandSource) -> Void,
                log: @escaping @Sendable (LogLevel, String) -> Void,
                entryChanged: @escaping @Sendable (String?) -> Void = { _ in }) {
        self.options = options
        self.deliver = deliver
        self.log = log
        self.entryChanged = entryChanged
    }

    /// Opens the devices present now (so their lines come before playback's), then watches on the
    /// input thread. On a machine without /dev/input it says so once and does nothing more.
    public func start() {
        let directory = options.directory
        guard FileManager.default.fileExists(atPath: directory) else {
            log(.info, "input: \(directory) does not exist; no keys will be read")
            return
        }
        wakeDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
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
        guard wakeDescriptor >= 0 else {
            log(.warning, "input: cannot create the input thread's wake-up eventfd: \(String(cString: strerror(errno))); keys are not read")
            closeEverything()
            return
        }
        lifecycle.lock()
        threadRunning = true
        lifecycle.unlock()
        let thread = Thread { [self] in
            run()
            closeEverything()
            lifecycle.lock()
            threadRunning = false
            lifecycle.broadcast()
            lifecycle.unlock()
        }
        thread.name = "marquee.input"
        thread.start()
    }

    /// Stops the thread and closes (and so ungrabs) every device; returns once that is done.
    public func stop() {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        guard !stopped else { return }
        stopped = true
        guard threadRunning else {
            closeEverything()
            return
        }
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
        while threadRunning { lifecycle.wait() }
    }

    // MARK: The input thread

    private func run() {
        while true {
            let paths = Array(reading.keys)
            var descriptors = [pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: inotifyDescriptor, events: Int16(POLLIN), revents: 0)]
            descriptors += paths.map { pollfd(fd: reading[$0]!.device.fileDescriptor, events: Int16(POLLIN), revents: 0) }
            // A negative fd (no inotify) is skipped by poll.
            let timeout: Int32 = retrying.isEmpty ? -1 : Int32(Self.retryInterval.components.attoseconds / 1_000_000_000_000_000)
            do {
                try SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), timeout) }
            } catch {
                log(.warning, "input: poll failed: \(error.message); keys are no longer read")
                return
            }
            if descriptors[0].revents != 0 { return }
            if descriptors[1].revents != 0 { readDirectoryChanges() }
            for (offset, path) in paths.enumerated() where descriptors[offset + 2].revents != 0 {
                readKeys(from: path, revents: descriptors[offset + 2].revents)
            }
            retryAppearedNodes()
        }
    }

    private func readKeys(from path: String, revents: Int16) {
        guard let device = reading[path] else { return }
        let failure: SystemError?
        switch device.device.read() {
        case .reports(let reports):
            handle(reports, from: device)
            // Hung up without an error from read: nothing more will come; do not poll it in a loop.
            let hungUp = revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
            failure = hungUp ? SystemError(code: ENODEV, operation: "poll", path: path) : nil
        case .failed(let reports, let error):
            handle(reports, from: device)
            failure = error
        }
        guard let failure else { return }
        reading[path] = nil
        if failure.code == ENODEV {
            log(.info, "input: removed \(path) \(Self.quoted(device.device.info.name))")
        } else {
            log(.warning, "input: removed \(path) \(Self.quoted(device.device.info.name)) after an error: \(failure)")
        }
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

    private func readDirectoryChanges() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotifyDescriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            for change in DirectoryChange.parse(buffer.prefix(count)) { apply(change) }
        }
    }

    private func apply(_ change: DirectoryChange) {
        let path = options.directory + "/" + change.name
        switch change.kind {
        case .appeared where EventNodeName.number(of: change.name) != nil:
            forget(path, announcing: true)
            if !consider(path, reportingFailure: false) { retrying[path] = .now + Self.retryWindow }
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
            close(inotifyDescriptor)
            inotifyDescriptor = -1
        default:
            break
        }
    }

    private func retryAppearedNodes() {
        guard !retrying.isEmpty, ContinuousClock.now - lastRetry >= Self.retryInterval else { return }
        lastRetry = .now
        for (path, deadline) in retrying {
            let reportNow = ContinuousClock.now >= deadline
            if consider(path, reportingFailure: reportNow) || reportNow { retrying[path] = nil }
        }
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
        return true
    }

    /// Drops whatever is known about a node that was removed or replaced.
    private func forget(_ path: String, announcing: Bool) {
        passedOver.remove(path)
        unopenable.remove(path)
        retrying[path] = nil
        if let device = reading.removeValue(forKey: path), announcing {
            log(.info, "input: removed \(path) \(Self.quoted(device.device.info.name))")
        }
    }

    private func closeEverything() {
        reading = [:]
        if inotifyDescriptor >= 0 { close(inotifyDescriptor) }
        if wakeDescriptor >= 0 { close(wakeDescriptor) }
        inotifyDescriptor = -1
        wakeDescriptor = -1
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
