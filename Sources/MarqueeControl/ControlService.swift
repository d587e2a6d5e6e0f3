import Dispatch
import Foundation
import MarqueeCore

/// The control socket's vocabulary over the player's one command path: every request becomes a
/// command sent with its client as the source (`ControlledPlayer.send(_:from:)`), a seek, or a read of
/// the status the player publishes; events and observers go back to the clients that asked.
///
/// Threads: requests arrive on the control-plane loop's thread and are answered without waiting on playback
/// (a seek's reply is sent when its frame is on screen, from the present thread, which only queues
/// it); events arrive on the event delivery thread; `load` and screenshots' PNG encoding run on a
/// queue of their own. None of them ever waits for a client.
public final class ControlService: @unchecked Sendable {
    private let player: any ControlledPlayer
    /// Every screen a request may name (its `screen`), the main one too; a mirror is its source's
    /// player.
    private let screens: [ScreenshotPublishing.Screen]
    private let host: ControlHost
    private let log: @Sendable (String) -> Void
    private let work = DispatchQueue(label: "marquee.control.work")
    private let lock = NSLock()
    /// The socket server: where replies to peers without a transport of their own go.
    private weak var transport: ControlTransport?
    private var clients: [Int: ClientState] = [:]
    private var nextObserverID = 1

    /// What one client asked to be told.
    private struct ClientState {
        /// nil: not subscribed; otherwise the event names wanted, nil inside meaning all but frames.
        var subscription: Set<String>??
        /// Whose events the subscription follows: the name of a screen of `displays:` playing a
        /// playlist, nil for the main one.
        var subscribedScreen: String?
        var periodic: [Int: PeriodicTimeObserver] = [:]
        var boundaries: [Int: BoundaryTimeObserver] = [:]
        /// The screen each observer follows, as `subscribedScreen`; absent: the main one.
        var observedScreens: [Int: String] = [:]
        /// Another transport (MQTT) that owns this peer; nil: the attached one (the socket).
        var transport: ControlTransport?
    }

    public init(player: any ControlledPlayer, host: ControlHost, screens: [ScreenshotPublishing.Screen] = [],
                log: @escaping @Sendable (String) -> Void) {
        self.player = player
        self.screens = screens
        self.host = host
        self.log = log
    }

    public func attach(_ transport: ControlTransport) {
        lock.withLock { self.transport = transport }
    }

    public func connected(_ peer: ControlPeer) {
        lock.withLock { clients[peer.id] = ClientState() }
    }

    /// A peer of another transport than the attached one (MQTT): its replies and events go there.
    public func connected(_ peer: ControlPeer, via transport: ControlTransport) {
        lock.withLock { clients[peer.id] = ClientState(transport: transport) }
    }

    /// The `status` reply's fields without `ok` and `id`, as one JSON line (MQTT's retained status).
    public func statusLine() -> String {
        StatusCoding.line(status(of: player))
    }

    private func status(of player: any ControlledPlayer) -> StatusDocument {
        var document = player.statusDocument()
        document.adopt(host.deviceStatus())
        return document
    }

    /// The player of the screen named (a mirror's is its source's), the main one for nil; nil when
    /// no screen has that name.
    private func player(onScreen name: String?) -> (any ControlledPlayer)? {
        guard let name else { return player }
        return screens.first { $0.name == name }?.player
    }

    /// The name under which `observe(_:at:screen:)` hears this player's events: nil for the main
    /// player, else the first screen playing it (a mirror comes after its source).
    private func eventSource(of named: any ControlledPlayer) -> String? {
        named === player ? nil : screens.first { $0.player === named }?.name
    }

    private func unknownScreen(_ name: String) -> String {
        let names = screens.compactMap(\.name)
        let known = names.isEmpty ? "one display: leave screen out" : "screens: " + names.joined(separator: ", ")
        return "no screen '\(name)' (\(known))"
    }

    public func disconnected(_ peer: ControlPeer) {
        _ = lock.withLock { clients.removeValue(forKey: peer.id) }
    }

    /// One line (or an over-long one) from a client; answered at once or, for a seek, a load and a
    /// screenshot, when done.
    public func handle(_ input: ControlSocketInput, from peer: ControlPeer) {
        switch input {
        case .lineTooLong(let limit):
            reply(to: peer.id, id: nil, .failure("request longer than \(limit) bytes; it was discarded"))
        case .line(let line):
            if line.allSatisfy(\.isWhitespace) { return }
            switch ControlRequestParser.parse(line) {
            case .failure(let error):
                reply(to: peer.id, id: error.id, .failure(error.message))
            case .success(let request):
                perform(request, from: peer)
            }
        }
    }

    private func perform(_ request: ControlRequest, from peer: ControlPeer) {
        let source = peer.source
        let id = request.id
        let needed = request.command.requiredRole
        guard peer.role >= needed else {
            let grant = if case .mqtt = source { "; mqtt.allow: [\(needed.rawValue)] grants it" } else { "" }
            log("control: refused \(request.command.name) from \(peer): it needs the \(needed.rawValue) role, the client has \(peer.role.rawValue)")
            reply(to: peer.id, id: id, .failure("\(request.command.name) needs the \(needed.rawValue) role; this client has \(peer.role.rawValue)\(grant)"))
            return
        }
        // The screen the request names; a request without one is the main screen's.
        guard let player = self.player(onScreen: request.screen) else {
            reply(to: peer.id, id: id, .failure(unknownScreen(request.screen ?? "")))
            return
        }
        switch request.command {
        case .action(let action):
            if case .playItem(let index) = action {
                let count = player.statusDocument().itemCount
                guard index < count else {
                    reply(to: peer.id, id: id, .failure("no item \(index) to play: the playlist has \(count) item\(count == 1 ? "" : "s") (0-based)"))
                    return
                }
            }
            if let refusal = player.refusal(of: action) {
                reply(to: peer.id, id: id, .failure(refusal))
                return
            }
            // Replied to before a quit acts, so the client hears it.
            reply(to: peer.id, id: id, .success([:]))
            player.send(action, from: source)
        case .seek(let time, let before, let after):
            if let refusal = player.refusal(of: .seek(to: time)) {
                reply(to: peer.id, id: id, .failure(refusal))
                return
            }
            guard player.statusDocument().item?.seekable == true else {
                reply(to: peer.id, id: id, .failure("the item on screen cannot seek (a still, a live stream or nothing playing)"))
                return
            }
            player.seek(to: time, toleranceBefore: before, toleranceAfter: after, from: source) { [weak self] finished in
                self?.reply(to: peer.id, id: id, .success(["finished": finished]))
            }
        case .status:
            reply(to: peer.id, id: id, .success(StatusCoding.fields(status(of: player))))
        case .subscribe(let events):
            let screen = eventSource(of: player)
            lock.withLock {
                clients[peer.id]?.subscription = .some(events.map(Set.init))
                clients[peer.id]?.subscribedScreen = screen
            }
            reply(to: peer.id, id: id, .success(["events": (events ?? PlayerEvent.allNames.subtracting(["frame"]).sorted())]))
        case .unsubscribe:
            lock.withLock { clients[peer.id]?.subscription = nil }
            reply(to: peer.id, id: id, .success([:]))
        case .observeEvery(let interval):
            let screen = eventSource(of: player)
            let observer = addObserver(for: peer.id) {
                $0.periodic[$1] = PeriodicTimeObserver(interval: interval)
                $0.observedScreens[$1] = screen
            }
            reply(to: peer.id, id: id, .success(["observer": observer]))
        case .observeBoundary(let times, let item):
            let screen = eventSource(of: player)
            let observer = addObserver(for: peer.id) {
                $0.boundaries[$1] = BoundaryTimeObserver(times: times, item: item)
                $0.observedScreens[$1] = screen
            }
            reply(to: peer.id, id: id, .success(["observer": observer]))
        case .removeObserver(let observer):
            let removed = lock.withLock {
                clients[peer.id]?.observedScreens[observer] = nil
                return (clients[peer.id]?.periodic.removeValue(forKey: observer) != nil)
                    || (clients[peer.id]?.boundaries.removeValue(forKey: observer) != nil)
            }
            reply(to: peer.id, id: id, removed ? .success([:]) : .failure("no observer \(observer) on this connection"))
        case .load(let load):
            work.async { [self] in self.load(load, from: source, peer: peer.id, id: id) }
        case .screenshot(let path, let width, let format):
            // Through a broker a whole 4K screen would be tens of MB of base64: a picture returned
            // over MQTT is scaled to the widest a request may ask for unless it asks for less.
            let overBroker = if case .mqtt = source { path == nil } else { false }
            let wanted = ScreenshotReply(path: path, width: width ?? (overBroker ? ControlVocabulary.maximumScreenshotWidth : nil),
                                         format: format ?? .png)
            // The present thread copies the picture between frames; the file is made here, not there.
            player.screenshot { [weak self] canvas in
                guard let self else { return }
                work.async { self.deliverScreenshot(canvas, wanted, from: source, peer: peer.id, id: id) }
            }
        }
    }

    private func addObserver(for peer: Int, _ add: (inout ClientState, Int) -> Void) -> Int {
        lock.withLock {
            let observer = nextObserverID
            nextObserverID += 1
            if var state = clients[peer] {
                add(&state, observer)
                clients[peer] = state
            }
            return observer
        }
    }

    private func load(_ load: ControlLoad, from source: CommandSource, peer: Int, id: ControlRequestID?) {
        let gate = LoadReplyGate { [self] fields, handOver in
            switch handOver {
            case .taken:
                var fields = fields
                fields["playing"] = true
                reply(to: peer, id: id, .success(fields))
            case .superseded:
                log("control: the load from \(source) was replaced by a newer plan before its downloads ended")
                reply(to: peer, id: id, .failure("replaced by a newer plan (a reload, a fetched config or another load) before its downloads ended"))
            }
        }
        let result = host.load(load) { handOver in
            if load.waits { gate.handedOver(handOver) }
        }
        switch result {
        case .failure(let rejection):
            log("control: load from \(source) refused: \(rejection.summary)")
            reply(to: peer, id: id, .failure(rejection.summary, extra: ["diagnostics": rejection.diagnostics]))
        case .success(let loaded):
            let count = loaded.itemCount
            let staging = loaded.staged > 0 ? "; \(loaded.staged) remote item\(loaded.staged == 1 ? "" : "s") to download and verify first" : ""
            log("control: \(source) loaded \(count) item\(count == 1 ? "" : "s") (\(load.mode.rawValue))\(staging)")
            let fields: [String: Any] = ["items": count, "mode": load.mode.rawValue, "warnings": loaded.warnings, "staged": loaded.staged]
            guard load.waits else {
                reply(to: peer, id: id, .success(fields))
                return
            }
            // The reply waits for the hand-over (sent at once if it has come already).
            gate.accepted(fields)
        }
    }

    /// What a `screenshot` request asked to be made of the picture.
    private struct ScreenshotReply {
        var path: String?
        var width: Int?
        var format: ImageFileFormat
    }

    private func deliverScreenshot(_ canvas: Canvas?, _ request: ScreenshotReply, from source: CommandSource, peer: Int, id: ControlRequestID?) {
        let path = request.path
        guard let canvas else {
            reply(to: peer, id: id, .failure("no picture to read back: nothing is on screen, or the output cannot read its buffer"))
            return
        }
        do {
            let image = try host.image(canvas, width: request.width, format: request.format)
            var fields: [String: Any] = ["width": image.size.width, "height": image.size.height, "bytes": image.bytes.count,
                                         "format": image.format.rawValue]
            if let path {
                let written = try host.saveScreenshot(image.bytes, named: path)
                log("control: screenshot written to \(written) for \(source)")
                fields["path"] = written
            } else {
                // Under the format's name: `png` as before, or `jpeg`.
                fields[image.format.rawValue] = Data(image.bytes).base64EncodedString()
            }
            reply(to: peer, id: id, .success(fields))
        } catch {
            let cause = String(describing: error)
            log("control: screenshot\(path.map { " as \($0)" } ?? "") for \(source) failed: \(cause)")
            reply(to: peer, id: id, .failure("screenshot\(path.map { " as \($0)" } ?? ""): \(cause)"))
        }
    }

    /// Every event a player posts, on its event delivery thread: to the subscribers that want it,
    /// and through each client's time observers, those that follow its screen (`screen`: the
    /// name of a screen of `displays:` playing a playlist; nil: the main player).
    public func observe(_ event: PlayerEvent, at seconds: Double, screen: String? = nil) {
        var lines: [(peer: Int, line: String, via: ControlTransport?)] = []
        lock.withLock {
            guard !clients.isEmpty else { return }
            var encoded: String?
            for (peer, var state) in clients {
                if case .some(let wanted) = state.subscription, state.subscribedScreen == screen,
                   wanted.map({ $0.contains(event.name) }) ?? (event.name != "frame") {
                    if encoded == nil { encoded = EventLogRecord(secondsSinceStart: seconds, event: event).jsonLine() }
                    lines.append((peer, encoded!, state.transport))
                }
                guard !state.periodic.isEmpty || !state.boundaries.isEmpty else { continue }
                for (observer, var periodic) in state.periodic where state.observedScreens[observer] == screen {
                    if let (item, position) = periodic.observe(event) {
                        lines.append((peer, ControlReply.line(["event": "position", "observer": observer, "item": item,
                                                               "position": position.seconds, "t": seconds]), state.transport))
                    }
                    state.periodic[observer] = periodic
                }
                for (observer, var boundary) in state.boundaries where state.observedScreens[observer] == screen {
                    for time in boundary.observe(event) {
                        let item: Int = if case .frame(let index, _, _, _, _) = event { index } else { boundary.item ?? 0 }
                        lines.append((peer, ControlReply.line(["event": "boundary", "observer": observer, "item": item,
                                                               "time": time.seconds, "t": seconds]), state.transport))
                    }
                    state.boundaries[observer] = boundary
                }
                clients[peer] = state
            }
        }
        guard !lines.isEmpty else { return }
        let socket = lock.withLock { transport }
        for (peer, line, via) in lines { (via ?? socket)?.send(line, to: peer) }
    }

    /// To the transport that owns the peer; a peer gone since (a late seek reply) goes to the
    /// socket server, which knows no such peer and drops it.
    private func reply(to peer: Int, id: ControlRequestID?, _ outcome: ControlReply.Outcome) {
        guard let transport = lock.withLock({ clients[peer]?.transport ?? transport }) else { return }
        transport.send(ControlReply.line(id: id, outcome), to: peer)
    }
}
