import Foundation
import MarqueeCore
import Testing
@testable import MarqueeControl

@Suite struct ControlRequestParserTests {
    static let valid: [(String, ControlRequest)] = [
        (#"{"command":"next"}"#, ControlRequest(id: nil, command: .action(.command(.next)))),
        (#"{"id":7,"command":"seek","to":83.2,"toleranceBefore":0,"toleranceAfter":0}"#,
         ControlRequest(id: .integer(7), command: .seek(to: MediaTime(83_200_000, per: 1_000_000), toleranceBefore: .zero, toleranceAfter: .zero))),
        (#"{"id":"a","command":"seek","to":"1:23.5","toleranceBefore":1}"#,
         ControlRequest(id: .string("a"), command: .seek(to: MediaTime(835, per: 10), toleranceBefore: MediaTime(seconds: 1), toleranceAfter: .zero))),
        (#"{"command":"skipBackward","seconds":10}"#, ControlRequest(id: nil, command: .action(.skip(by: -MediaTime(seconds: 10))))),
        (#"{"command":"skipForward"}"#, ControlRequest(id: nil, command: .action(.skip(by: MediaTime(seconds: 30))))),
        (#"{"command":"stepBackward","count":3}"#, ControlRequest(id: nil, command: .action(.step(by: -3)))),
        (#"{"command":"playItem","index":2}"#, ControlRequest(id: nil, command: .action(.playItem(index: 2)))),
        (#"{"command":"setRepeat","mode":"one"}"#, ControlRequest(id: nil, command: .action(.setRepeat(.one)))),
        (#"{"command":"setScaling","mode":"fill"}"#, ControlRequest(id: nil, command: .action(.setScaling(.fill)))),
        (#"{"command":"setVolume","volume":0.5}"#, ControlRequest(id: nil, command: .action(.setVolume(0.5)))),
        (#"{"command":"mute","muted":false}"#, ControlRequest(id: nil, command: .action(.setMuted(false)))),
        // `mute` alone mutes (as the command's name says); only "muted":false unmutes.
        (#"{"command":"mute"}"#, ControlRequest(id: nil, command: .action(.setMuted(true)))),
        (#"{"command":"mute","muted":true}"#, ControlRequest(id: nil, command: .action(.setMuted(true)))),
        (#"{"command":"rate","rate":2}"#, ControlRequest(id: nil, command: .action(.setRate(2)))),
        (#"{"command":"rate","rate":0.25}"#, ControlRequest(id: nil, command: .action(.setRate(0.25)))),
        (#"{"command":"rate","rate":4.0}"#, ControlRequest(id: nil, command: .action(.setRate(4)))),
        (#"{"command":"actionAtItemEnd","action":"none"}"#, ControlRequest(id: nil, command: .action(.setActionAtItemEnd(.none)))),
        (#"{"command":"reload"}"#, ControlRequest(id: nil, command: .action(.reload))),
        (#"{"command":"quit","id":1.5}"#, ControlRequest(id: .number(1.5), command: .action(.quit))),
        (#"{"command":"subscribe","events":["itemStarted","frame"]}"#, ControlRequest(id: nil, command: .subscribe(events: ["itemStarted", "frame"]))),
        (#"{"command":"observe","every":0.5}"#, ControlRequest(id: nil, command: .observeEvery(MediaTime(1, per: 2)))),
        (#"{"command":"observe","at":[12.0,"1:23.2"],"item":2}"#,
         ControlRequest(id: nil, command: .observeBoundary(times: [MediaTime(seconds: 12), MediaTime(832, per: 10)], item: 2))),
        (#"{"command":"load","path":"/etc/marquee/other.yaml","mode":"append"}"#,
         ControlRequest(id: nil, command: .load(ControlLoad(source: .path("/etc/marquee/other.yaml"), mode: .append)))),
        (#"{"command":"screenshot","path":"/tmp/now.png"}"#, ControlRequest(id: nil, command: .screenshot(path: "/tmp/now.png"))),
        // A screen of displays: by its name, for what that screen plays.
        (#"{"command":"status","screen":"right"}"#, ControlRequest(id: nil, command: .status, screen: "right")),
        (#"{"command":"pause","screen":"left"}"#, ControlRequest(id: nil, command: .action(.command(.pause)), screen: "left")),
        (#"{"command":"seek","to":2,"screen":"left"}"#,
         ControlRequest(id: nil, command: .seek(to: MediaTime(seconds: 2), toleranceBefore: .zero, toleranceAfter: .zero), screen: "left")),
        (#"{"command":"displayOff","screen":"right"}"#, ControlRequest(id: nil, command: .action(.command(.displayOff)), screen: "right")),
        (#"{"command":"screenshot","width":64,"screen":"right"}"#, ControlRequest(id: nil, command: .screenshot(path: nil, width: 64), screen: "right")),
        (#"{"command":"next","screen":null}"#, ControlRequest(id: nil, command: .action(.command(.next)))),
        (#"{"command":"subscribe","screen":"right"}"#, ControlRequest(id: nil, command: .subscribe(events: nil), screen: "right")),
        (#"{"command":"observe","every":1,"screen":"right"}"#, ControlRequest(id: nil, command: .observeEvery(MediaTime(seconds: 1)), screen: "right")),
    ]

    @Test func readsEveryKindOfRequest() throws {
        for (line, expected) in Self.valid {
            let parsed = try ControlRequestParser.parse(line).get()
            #expect(parsed == expected, "\(line)")
        }
    }

    static let invalid: [(String, String)] = [
        ("hello", "not JSON"),
        ("[1,2]", "not a JSON object"),
        (#"{"id":true,"command":"next"}"#, "'id' must be a number or a string"),
        (#"{"id":3}"#, "no 'command'"),
        (#"{"command":5}"#, "'command' must be a string"),
        (#"{"command":"nxt"}"#, "unknown command 'nxt'; commands: actionAtItemEnd,"),
        (#"{"command":"next","seconds":3}"#, "next takes no fields, not 'seconds'"),
        (#"{"command":"seek"}"#, "seek needs 'to'"),
        (#"{"command":"seek","to":-1}"#, "'to' must be a time from 0 seconds up"),
        (#"{"command":"seek","to":"1:2x"}"#, "'to': bad time '1:2x'"),
        (#"{"command":"seek","to":true}"#, "'to' must be seconds"),
        (#"{"command":"seek","to":1,"tolerance":2}"#, "seek takes 'to', 'toleranceAfter', 'toleranceBefore', not 'tolerance'"),
        (#"{"command":"playItem","index":-1}"#, "'index' must be a whole number from 0"),
        (#"{"command":"playItem","index":1.5}"#, "'index' must be a whole number"),
        (#"{"command":"setRepeat","mode":"twice"}"#, "'mode' must be one of off, one, all, shuffle, not 'twice'"),
        (#"{"command":"setVolume","volume":2}"#, "'volume' must be a number from 0 to 1"),
        (#"{"command":"mute","muted":"yes"}"#, "'muted' must be true or false"),
        (#"{"command":"rate","rate":5}"#, "'rate' must be a number from 0.25 to 4"),
        (#"{"command":"rate","rate":0.2}"#, "'rate' must be a number from 0.25 to 4"),
        (#"{"command":"rate","rate":-1}"#, "'rate' must be a number from 0.25 to 4"),
        (#"{"command":"rate","rate":"fast"}"#, "'rate' must be a number from 0.25 to 4"),
        (#"{"command":"rate","rate":true}"#, "'rate' must be a number from 0.25 to 4"),
        (#"{"command":"rate"}"#, "'rate' must be a number from 0.25 to 4"),
        (#"{"command":"rate","rate":2,"speed":2}"#, "rate takes 'rate', not 'speed'"),
        (#"{"command":"stepForward","count":0}"#, "'count' must be a whole number from 1 to 1000"),
        (#"{"command":"skipForward","seconds":0}"#, "'seconds' must be above 0"),
        (#"{"command":"subscribe","events":["nope"]}"#, "unknown event 'nope'"),
        (#"{"command":"observe"}"#, "observe needs either 'every'"),
        (#"{"command":"observe","every":0}"#, "'every' must be at least 0.01 seconds"),
        (#"{"command":"observe","at":[]}"#, "'at' must list 1 to 10000 times"),
        (#"{"command":"load"}"#, "load needs either 'path'"),
        (#"{"command":"load","path":"a.yaml","mode":"merge"}"#, "'mode' must be one of replace, append, not 'merge'"),
        (#"{"command":"load","playlist":[1]}"#, "'playlist' must be an object"),
        (#"{"command":"screenshot","path":""}"#, "'path' must not be empty"),
        (#"{"id":4,"command":"status","screen":""}"#, "'screen' must be the name of a screen of displays:; leave it out for the main screen"),
        (#"{"command":"pause","screen":2}"#, "'screen' must be the name of a screen of displays:"),
        (#"{"command":"quit","screen":"left"}"#, "quit ends the whole player, every screen with it; leave 'screen' out"),
        (#"{"command":"reload","screen":"left"}"#, "reload reads the config of every screen again; leave 'screen' out"),
        (#"{"command":"load","path":"a.yaml","screen":"left"}"#, "load replaces the main screen's playlist; leave 'screen' out"),
        (#"{"command":"unsubscribe","screen":"left"}"#, "unsubscribe ends this connection's subscription, whichever screen's; leave 'screen' out"),
        (#"{"command":"removeObserver","observer":1,"screen":"left"}"#, "removeObserver names the observer by its number alone; leave 'screen' out"),
    ]

    @Test func refusesWhatIsWrongWithAReasonNamingTheField() {
        for (line, fragment) in Self.invalid {
            switch ControlRequestParser.parse(line) {
            case .success(let request): Issue.record("\(line) was accepted as \(request)")
            case .failure(let error): #expect(error.message.contains(fragment), "\(line): \(error.message)")
            }
        }
    }

    @Test func anErrorCarriesTheRequestsID() {
        guard case .failure(let error) = ControlRequestParser.parse(#"{"id":9,"command":"seek"}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(error.id == .integer(9))
    }

    /// Mutated requests and random bytes: every line is either a request or an error, never a crash.
    @Test func fuzzedLinesAreRequestsOrErrors() {
        var random = SystemRandomNumberGenerator()
        let seed = UInt64.random(in: 0...UInt64.max, using: &random)
        var generator = SeededRandom(seed: seed)
        let samples = Self.valid.map(\.0) + Self.invalid.map(\.0)
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes = Array(samples[Int(generator.next() % UInt64(samples.count))].utf8)
            for _ in 0..<(1 + generator.next() % 4) {
                let at = Int(generator.next() % UInt64(bytes.count + 1))
                switch generator.next() % 3 {
                case 0: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: generator.next()) }
                }
            }
            if case .success = ControlRequestParser.parse(String(decoding: bytes, as: UTF8.self)) { accepted += 1 }
        }
        // Some mutations keep a request valid (a changed digit), most do not; all were answered.
        #expect(accepted > 0 && accepted < 20_000, "seed \(seed)")
    }
}

@Suite struct ControlCommandLineTests {
    @Test func wordsBecomeRequests() throws {
        let request = try ControlCommandLine.request(["seek", "1:23"], workingDirectory: "/home/op")
        #expect(request["command"] as? String == "seek" && request["to"] as? String == "1:23")
        let load = try ControlCommandLine.request(["load", "other.yaml"], workingDirectory: "/home/op", append: true)
        #expect(load["path"] as? String == "/home/op/other.yaml" && load["mode"] as? String == "append")
        let observe = try ControlCommandLine.request(["observe", "at", "12", "83.2"], workingDirectory: "/")
        #expect(observe["at"] as? [String] == ["12", "83.2"])
        #expect(try ControlCommandLine.request(["next"], workingDirectory: "/")["command"] as? String == "next")
        #expect(throws: ControlCommandLine.Usage.self) { try ControlCommandLine.request(["next", "3"], workingDirectory: "/") }
        #expect(throws: ControlCommandLine.Usage.self) { try ControlCommandLine.request(["playItem", "two"], workingDirectory: "/") }
        let rate = try ControlCommandLine.request(["rate", "0.5"], workingDirectory: "/")
        #expect(rate["command"] as? String == "rate" && rate["rate"] as? Double == 0.5)
        #expect(try ControlCommandLine.request(["rate", "2"], workingDirectory: "/")["rate"] as? Int == 2)
        #expect(throws: ControlCommandLine.Usage.self) { try ControlCommandLine.request(["rate"], workingDirectory: "/") }
        #expect(throws: ControlCommandLine.Usage.self) { try ControlCommandLine.request(["rate", "fast"], workingDirectory: "/") }
    }
}
