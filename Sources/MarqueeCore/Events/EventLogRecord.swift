import Foundation

/// One line of the `--events` log: `{"event":"itemStarted","index":0,"t":1.25,"url":"..."}`.
/// Keys are sorted so lines are byte-stable for tests and diffing; times are seconds.
public struct EventLogRecord: Encodable, Sendable {
    public let secondsSinceStart: Double
    public let event: PlayerEvent

    public init(secondsSinceStart: Double, event: PlayerEvent) {
        self.secondsSinceStart = secondsSinceStart
        self.event = event
    }

    private struct Key: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: Key.self)
        try fields.encode(secondsSinceStart, forKey: Key("t"))
        try fields.encode(event.name, forKey: Key("event"))
        switch event {
        case .itemStarted(let index, let url, let title, let id):
            try fields.encode(index, forKey: Key("index"))
            try fields.encode(url, forKey: Key("url"))
            try fields.encodeIfPresent(title, forKey: Key("title"))
            try fields.encodeIfPresent(id, forKey: Key("id"))
        case .itemEnded(let index, let url, let reason, let message):
            try fields.encode(index, forKey: Key("index"))
            try fields.encode(url, forKey: Key("url"))
            try fields.encode(reason, forKey: Key("reason"))
            try fields.encodeIfPresent(message, forKey: Key("message"))
        case .playbackStateChanged(let from, let to):
            try fields.encode(from, forKey: Key("from"))
            try fields.encode(to, forKey: Key("state"))
        case .loadStateChanged(let state):
            try fields.encode(state, forKey: Key("state"))
        case .timeJumped(let from, let to):
            try fields.encode(from.seconds, forKey: Key("from"))
            try fields.encode(to.seconds, forKey: Key("to"))
        case .playbackStalled:
            break
        case .durationAvailable(let duration):
            try fields.encode(duration.seconds, forKey: Key("duration"))
        case .naturalSizeAvailable(let width, let height):
            try fields.encode(width, forKey: Key("width"))
            try fields.encode(height, forKey: Key("height"))
        case .scalingModeChanged(let mode):
            try fields.encode(mode, forKey: Key("mode"))
        case .repeatModeChanged(let mode):
            try fields.encode(mode, forKey: Key("mode"))
        case .error(let message):
            try fields.encode(message, forKey: Key("message"))
        case .volumeChanged(let volume, let muted):
            try fields.encode(volume, forKey: Key("volume"))
            try fields.encode(muted, forKey: Key("muted"))
        case .rateChanged(let rate, let sound):
            try fields.encode(rate, forKey: Key("rate"))
            try fields.encode(sound, forKey: Key("sound"))
        case .displayPowerChanged(let on):
            try fields.encode(on ? "on" : "off", forKey: Key("display"))
        case .daypartChanged(let daypart, let itemCount, let immediately):
            // {"event":"daypartChanged","daypart":"lunch","items":3,"at":"itemEnd"}; no daypart: null
            if let daypart { try fields.encode(daypart, forKey: Key("daypart")) } else { try fields.encodeNil(forKey: Key("daypart")) }
            try fields.encode(itemCount, forKey: Key("items"))
            try fields.encode(immediately ? "now" : "itemEnd", forKey: Key("at"))
        case .downloadProgress(let url, let bytes, let total, let state):
            // {"event":"downloadProgress","url":"https://cms/a.mp4","bytes":1048576,"total":4194304,"state":"downloading"}
            try fields.encode(url, forKey: Key("url"))
            try fields.encode(bytes, forKey: Key("bytes"))
            try fields.encodeIfPresent(total, forKey: Key("total"))
            try fields.encode(state, forKey: Key("state"))
        case .frame(let item, let pts, let time, let dropped, let wall):
            try fields.encode(item, forKey: Key("item"))
            try fields.encode(pts.seconds, forKey: Key("pts"))
            try fields.encode(time.seconds, forKey: Key("time"))
            if dropped { try fields.encode(true, forKey: Key("dropped")) }
            try fields.encodeIfPresent(wall, forKey: Key("wall"))
        case .wallSyncJoined(let item, let itemTime, let cycle, let reason):
            // {"event":"wallSyncJoined","item":1,"itemTime":2.36,"cycle":4210,"reason":"start"}
            try fields.encode(item, forKey: Key("item"))
            try fields.encode(itemTime.seconds, forKey: Key("itemTime"))
            try fields.encode(cycle, forKey: Key("cycle"))
            try fields.encode(reason, forKey: Key("reason"))
        case .command(let action, let source):
            // {"command":"next","source":"key","key":"KEY_NEXTSONG","device":"...","path":"/dev/input/event1"}
            try fields.encode(action.name, forKey: Key("command"))
            try encodeArguments(of: action, into: &fields)
            try fields.encode(source.kind, forKey: Key("source"))
            switch source {
            case .key(let name, let device, let path):
                try fields.encode(name, forKey: Key("key"))
                try fields.encode(device, forKey: Key("device"))
                try fields.encode(path, forKey: Key("path"))
            case .signal(let name):
                try fields.encode(name, forKey: Key("signal"))
            case .file(let path):
                // {"command":"reload","source":"file","path":"/etc/marquee/marquee.yaml"}
                try fields.encode(path, forKey: Key("path"))
            case .control(let client, let uid, let pid):
                // {"command":"seek","source":"control","client":3,"uid":1000,"pid":4242,"to":83.2}
                try fields.encode(client, forKey: Key("client"))
                try fields.encode(uid, forKey: Key("uid"))
                try fields.encode(pid, forKey: Key("pid"))
            case .mqtt(let topic):
                // {"command":"next","source":"mqtt","topic":"marquee/lobby/command"}
                try fields.encode(topic, forKey: Key("topic"))
            case .application, .stopTimeout, .schedule:
                break
            }
        case .queueReplaced(let itemCount, let immediately):
            // {"event":"queueReplaced","items":4,"at":"itemEnd"}
            try fields.encode(itemCount, forKey: Key("items"))
            try fields.encode(immediately ? "now" : "itemEnd", forKey: Key("at"))
        case .boundary(let item, let time):
            // {"event":"boundary","item":2,"observer":"cues","time":83.2}
            try fields.encode(item, forKey: Key("item"))
            try fields.encode(time.seconds, forKey: Key("time"))
            try fields.encode("cues", forKey: Key("observer"))
        }
    }

    /// A command's values, named as the control socket's requests name them.
    private func encodeArguments(of action: ControlAction, into fields: inout KeyedEncodingContainer<Key>) throws {
        switch action {
        case .playItem(let index): try fields.encode(index, forKey: Key("index"))
        case .skip(let interval): try fields.encode((interval < .zero ? -interval : interval).seconds, forKey: Key("seconds"))
        case .step(let count): try fields.encode(count.magnitude, forKey: Key("count"))
        case .setRepeat(let mode): try fields.encode(mode, forKey: Key("mode"))
        case .setScaling(let mode): try fields.encode(mode, forKey: Key("mode"))
        case .setVolume(let volume): try fields.encode(volume, forKey: Key("volume"))
        case .setMuted(let muted): try fields.encode(muted, forKey: Key("muted"))
        case .setActionAtItemEnd(let action): try fields.encode(action, forKey: Key("action"))
        case .seek(let time): try fields.encode(time.seconds, forKey: Key("to"))
        case .setRate(let rate): try fields.encode(rate, forKey: Key("rate"))
        case .command, .quit, .reload: break
        }
    }

    /// The record as one line of JSON, without the newline.
    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and enums cannot fail; a failure here is a programming error.
        guard let data = try? encoder.encode(self), let line = String(data: data, encoding: .utf8) else {
            preconditionFailure("event \(event.name) failed to encode")
        }
        return line
    }
}
