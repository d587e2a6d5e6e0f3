import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let inputKeys = ["devices", "grab", "keymap", "keys", "stopTimeout", "lockdown", "visitorKeys"]

    mutating func decodeInput(_ node: Node) -> InputConfiguration {
        var input = InputConfiguration()
        guard let fields = fields(of: node, in: "input", allowed: Self.inputKeys) else { return input }
        if let node = fields["devices"]?.value, let devices = decodeDevices(node) {
            input.devices = devices
        }
        if let node = fields["grab"]?.value, let grab = bool(node) {
            input.grab = grab
        }
        if let node = fields["keymap"]?.value,
           let base: InputConfiguration.BaseKeyMap = choice(node, named: "keymap") {
            input.baseKeyMap = base
        }
        if let node = fields["keys"]?.value {
            input.keyOverrides = decodeKeys(node, over: input.baseKeyMap == .none ? .empty : .default)
        }
        if let node = fields["stopTimeout"]?.value, let timeout = decodeStopTimeout(node) {
            input.stopTimeout = timeout
        }
        if let node = fields["visitorKeys"]?.value {
            input.visitorCommands = decodeVisitorKeys(node)
            if let allowed = input.visitorCommands {
                for (key, command) in input.keyOverrides.sorted(by: { $0.key.name < $1.key.name }) {
                    guard let command, !allowed.contains(command) else { continue }
                    log.warning(at: fields["keys"]?.keyPosition ?? SourcePosition(of: node),
                                "\(key) is bound to \(command.rawValue), which input.visitorKeys does not list; the key does nothing")
                }
            }
        }
        if let node = fields["lockdown"]?.value, let lockdown = bool(node) {
            input.lockdown = lockdown
            if lockdown, !input.grab, let grab = fields["grab"] {
                log.error(at: grab.keyPosition, "input.lockdown grabs every keyboard; it cannot be combined with 'grab: false'")
            }
        }
        return input
    }

    /// `none`, or a time (seconds or [hh:]mm:ss[.fff]); 0 is none too. The outer nil: not valid.
    private mutating func decodeStopTimeout(_ node: Node) -> MediaTime?? {
        if case .scalar(let scalar) = node, scalar.string.lowercased() == "none" { return .some(nil) }
        guard case .scalar = node, !isNothing(node) else {
            log.error(at: SourcePosition(of: node),
                      "expected none or a time (seconds or [hh:]mm:ss[.fff]), found \(describe(node))")
            return nil
        }
        guard let time = time(node) else { return nil }
        return .some(time > .zero ? time : nil)
    }

    /// `all`, or a list of command names (and `numericEntry` for the digits and playEnteredItem).
    /// The outer nil: all.
    private mutating func decodeVisitorKeys(_ node: Node) -> Set<Command>? {
        if case .scalar(let scalar) = node, scalar.string.lowercased() == "all" { return nil }
        guard case .sequence(let sequence) = node else {
            log.error(at: SourcePosition(of: node), "expected all or a list of commands keys may issue (e.g. [next, previous, volumeUp, volumeDown]), found \(describe(node))")
            return nil
        }
        var commands = Set<Command>()
        for item in sequence {
            if case .scalar(let scalar) = item, scalar.string == InputConfiguration.numericEntryName {
                commands.formUnion(InputConfiguration.numericEntryCommands)
            } else if let command = command(item) {
                commands.insert(command)
            }
        }
        return commands
    }

    /// `auto`, `none`, one device, or a list of them.
    private mutating func decodeDevices(_ node: Node) -> InputConfiguration.Devices? {
        if case .sequence(let sequence) = node {
            let devices = sequence.compactMap { string($0, expected: "a device path or name") }
            return devices.count == sequence.count ? .list(devices) : nil
        }
        guard let text = string(node, expected: "auto, none or a list of device paths or names") else { return nil }
        switch text {
        case "auto": return .auto
        case "none": return InputConfiguration.Devices.none
        default: return .list([text])
        }
    }

    /// Key names to commands; `none` unbinds a key of the base map.
    private mutating func decodeKeys(_ node: Node, over base: KeyMap) -> [KeyName: Command?] {
        if isNothing(node) { return [:] }
        guard case .mapping(let mapping) = node else {
            log.error(at: SourcePosition(of: node),
                      "expected a mapping of key names to commands or none (e.g. KEY_KP5: togglePlayPause, KEY_ESC: none), found \(describe(node))")
            return [:]
        }
        var overrides: [KeyName: Command?] = [:]
        var firstLineByCode: [UInt16: Int] = [:]
        for (keyNode, commandNode) in mapping {
            guard case .scalar(let keyScalar) = keyNode, !duplicateKeySentinels.contains(keyScalar.string) else { continue }
            let key = keyName(keyScalar.string, at: SourcePosition(of: keyNode))
            let binding = binding(commandNode)
            guard let key, let binding else { continue }
            // Aliases share a code (kp5 and KEY_KP5), so a repeat is invisible to the YAML parser.
            let position = SourcePosition(of: keyNode)
            if let line = firstLineByCode[key.code] {
                log.warning(at: position, "\(key) is already bound at line \(line); this binding replaces it")
            } else if binding == nil && base.command(for: key) == nil {
                log.warning(at: SourcePosition(of: commandNode),
                            "\(key) is not bound by the \(base == .empty ? "empty (keymap: none)" : "default") map; none changes nothing")
            }
            firstLineByCode[key.code] = position.line
            overrides.updateValue(binding, forKey: key)
        }
        return overrides
    }

    /// A command, or `none` (unbound): `.some(nil)`. Nil when the node is neither.
    private mutating func binding(_ node: Node) -> Command?? {
        if case .scalar(let scalar) = node, !isNothing(node), scalar.string.lowercased() == InputConfiguration.unboundName {
            return .some(nil)
        }
        return command(node).map { .some($0) }
    }

    private mutating func keyName(_ text: String, at position: SourcePosition) -> KeyName? {
        if let key = KeyName(text) { return key }
        var message = "unknown key name '\(text)'"
        // Compare without the shared KEY_ prefix, or every short name would look close to every other.
        let typed = text.uppercased().hasPrefix("KEY_") ? String(text.uppercased().dropFirst(4)) : text.uppercased()
        let names = KeyName.allNames.filter { $0.hasPrefix("KEY_") }.map { String($0.dropFirst(4)) }
        if let suggestion = Suggestion.closest(to: typed, among: names) {
            message += "; did you mean 'KEY_\(suggestion)'?"
        } else {
            message += " (use an evdev name such as KEY_KP5 or KEY_PLAYPAUSE, as in linux/input-event-codes.h)"
        }
        log.error(at: position, message)
        return nil
    }

    private mutating func command(_ node: Node) -> Command? {
        let names = Command.allCases.map(\.rawValue)
        guard let text = string(node, expected: "a command (\(names.joined(separator: ", "))) or none") else { return nil }
        if let command = Command.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
            return command
        }
        if text.lowercased() == "quit" {
            // No visitor may end the process from a keypad.
            log.error(at: SourcePosition(of: node), "quit cannot be bound to a key (quit with `marquee ctl quit` or SIGTERM)")
            return nil
        }
        var message = "unknown command '\(text)'"
        if let suggestion = Suggestion.closest(to: text, among: names + [InputConfiguration.unboundName]) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += " (commands: \(names.joined(separator: ", ")); none unbinds the key)"
        }
        log.error(at: SourcePosition(of: node), message)
        return nil
    }
}
