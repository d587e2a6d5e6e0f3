import Foundation
import MarqueeCore
import Testing
@testable import MarqueeControl

/// The control service in process, over a stand-in player and host: what each request does and
/// what it answers, whichever transport it came by.
@Suite struct ControlServiceTests {
    let player = StandInPlayer()
    let host = StandInHost()
    let transport = RecordingTransport()
    let service: ControlService

    init() {
        service = ControlService(player: player, host: host, log: { _ in })
        service.attach(transport)
    }

    func ask(_ line: String, role: ControlRole = .admin, expecting count: Int = 1) -> [String: Any] {
        let peer = ControlPeer(id: ControlPeer.allocateID(), uid: 1000, gid: 1000, pid: 42, role: role)
        service.connected(peer)
        service.handle(.line(line), from: peer)
        return transport.waitForObjects(count, for: peer.id).last ?? [:]
    }

    @Test func aCommandGoesOnTheCommandPathWithItsClientAsSource() {
        let reply = ask(#"{"id":3,"command":"next"}"#)
        #expect(reply["ok"] as? Bool == true && reply["id"] as? Int == 3)
        #expect(player.actions == [.command(.next)])
        guard case .control(_, let uid, let pid)? = player.sources.first else { Issue.record("source \(player.sources)"); return }
        #expect(uid == 1000 && pid == 42)
    }

    @Test func playItemPastTheEndIsRefusedAndNothingIsSent() {
        let reply = ask(#"{"command":"playItem","index":2}"#)
        #expect(reply["ok"] as? Bool == false)
        #expect(reply["error"] as? String == "no item 2 to play: the playlist has 2 items (0-based)")
        #expect(player.actions.isEmpty)
        #expect(ask(#"{"command":"playItem","index":1}"#)["ok"] as? Bool == true)
        #expect(player.actions == [.playItem(index: 1)])
    }

    @Test func whatThePlayerRefusesIsAnsweredFalseWithItsReason() {
        player.refuse { $0 == .command(.next) ? "next: playback is locked to the wall" : nil }
        let reply = ask(#"{"command":"next"}"#)
        #expect(reply["ok"] as? Bool == false && reply["error"] as? String == "next: playback is locked to the wall")
        #expect(player.actions.isEmpty)
        player.refuse { _ in "seek: locked" }
        #expect(ask(#"{"command":"seek","to":1}"#)["error"] as? String == "seek: locked")
        #expect(player.seekTimes.isEmpty)
    }

    /// A request's `screen` sends it to that screen's player, whose own checks (its item count, its
    /// refusals) apply; the main player hears nothing of it.
    @Test func aRequestNamingAScreenGoesToThatScreensPlayer() {
        let side = StandInPlayer(itemCount: 5)
        side.refuse { $0 == .command(.next) ? "next: side is locked to the wall" : nil }
        let service = ControlService(player: player, host: host, screens: [.init(name: "main", player: player), .init(name: "side", player: side)],
                                     log: { _ in })
        service.attach(transport)
        func ask(_ line: String) -> [String: Any] {
            let peer = ControlPeer(id: ControlPeer.allocateID(), uid: 1000, gid: 1000, pid: 42, role: .admin)
            service.connected(peer)
            service.handle(.line(line), from: peer)
            return transport.waitForObjects(1, for: peer.id).last ?? [:]
        }
        #expect(ask(#"{"command":"playItem","index":4,"screen":"side"}"#)["ok"] as? Bool == true)
        #expect(ask(#"{"command":"playItem","index":4}"#)["error"] as? String == "no item 4 to play: the playlist has 2 items (0-based)")
        #expect(ask(#"{"command":"next","screen":"side"}"#)["error"] as? String == "next: side is locked to the wall")
        #expect(ask(#"{"command":"next","screen":"main"}"#)["ok"] as? Bool == true)
        #expect(ask(#"{"command":"seek","to":1,"screen":"side"}"#)["finished"] as? Bool == true)
        #expect(ask(#"{"command":"status","screen":"side"}"#)["itemCount"] as? Int == 5)
        #expect(ask(#"{"command":"status"}"#)["itemCount"] as? Int == 2)
        #expect(ask(#"{"command":"pause","screen":"other"}"#)["error"] as? String == "no screen 'other' (screens: main, side)")
        #expect(side.actions == [.playItem(index: 4)] && side.seekTimes == [MediaTime(seconds: 1)])
        #expect(player.actions == [.command(.next)] && player.seekTimes.isEmpty)
        // One display: no screen to name.
        #expect(self.ask(#"{"command":"status","screen":"side"}"#)["error"] as? String == "no screen 'side' (one display: leave screen out)")
    }

    /// A subscription and an observer follow the screen the request named (a mirror: its source),
    /// and hear no other screen's events; without a name, the main player's.
    @Test func subscriptionsAndObserversFollowTheScreenNamed() {
        let side = StandInPlayer()
        let service = ControlService(player: player, host: host,
                                     screens: [.init(name: "main", player: player), .init(name: "side", player: side), .init(name: "copy", player: side)],
                                     log: { _ in })
        service.attach(transport)
        func connect(_ lines: String...) -> Int {
            let peer = ControlPeer(id: ControlPeer.allocateID(), uid: 1000, gid: 1000, pid: 42, role: .admin)
            service.connected(peer)
            for line in lines { service.handle(.line(line), from: peer) }
            _ = transport.waitForObjects(lines.count, for: peer.id)
            return peer.id
        }
        let onSide = connect(#"{"command":"subscribe","events":["itemStarted"],"screen":"copy"}"#,
                             #"{"command":"observe","at":[1],"screen":"side"}"#)
        let onMain = connect(#"{"command":"subscribe","events":["itemStarted"]}"#, #"{"command":"observe","at":[1]}"#)
        func frames(_ item: Int, screen: String?) {
            for pts in [0.96, 1.0] {
                service.observe(.frame(item: item, pts: MediaTime(Int64(pts * 100), per: 100), time: .zero, dropped: false), at: 1, screen: screen)
            }
        }
        service.observe(.itemStarted(index: 0, url: "/media/main.mp4"), at: 1)
        frames(0, screen: nil)
        service.observe(.itemStarted(index: 3, url: "/media/side.mp4"), at: 1, screen: "side")
        frames(3, screen: "side")
        service.observe(.itemStarted(index: 5, url: "/media/elsewhere.mp4"), at: 1, screen: "elsewhere")
        let heard = transport.waitForObjects(4, for: onSide).dropFirst(2)
        #expect(heard.compactMap { $0["url"] as? String } == ["/media/side.mp4"], "\(heard)")
        #expect(heard.compactMap { $0["event"] as? String == "boundary" ? $0["item"] as? Int : nil } == [3], "\(heard)")
        let main = transport.waitForObjects(4, for: onMain).dropFirst(2)
        #expect(main.compactMap { $0["url"] as? String } == ["/media/main.mp4"], "\(main)")
        #expect(main.compactMap { $0["event"] as? String == "boundary" ? $0["item"] as? Int : nil } == [0], "\(main)")
    }

    @Test func aClientBelowTheCommandsRoleIsRefused() {
        let reply = ask(#"{"command":"pause"}"#, role: .observe)
        #expect(reply["error"] as? String == "pause needs the control role; this client has observe")
        #expect(player.actions.isEmpty)
        #expect(ask(#"{"command":"status"}"#, role: .observe)["ok"] as? Bool == true)
        #expect(ask(#"{"command":"quit"}"#, role: .control)["error"] as? String == "quit needs the admin role; this client has control")
    }

    /// The status reply is the player's document with the host's devices, under the README's names.
    @Test func statusIsThePlayersDocumentWithTheHostsDevices() throws {
        let reply = ask(#"{"command":"status"}"#)
        #expect(reply["ok"] as? Bool == true && reply["itemCount"] as? Int == 2 && reply["repeat"] as? String == "all")
        #expect((reply["audio"] as? [String: Any])?["device"] as? String == "hw:0,0")
        let retained = try StatusCoding.document(service.statusLine())
        #expect(retained.audio?.device == "hw:0,0" && retained.item?.url == "/media/a.mp4")
    }

    @Test func aSeekIsAnsweredWhenItsFrameIsShownAndRefusedWhereNothingCanSeek() {
        let reply = ask(#"{"command":"seek","to":"0:01.5"}"#)
        #expect(reply["ok"] as? Bool == true && reply["finished"] as? Bool == true)
        #expect(player.seekTimes == [MediaTime(3, per: 2)])
        let still = StandInPlayer(seekable: false)
        let other = ControlService(player: still, host: host, log: { _ in })
        other.attach(transport)
        let peer = ControlPeer(id: ControlPeer.allocateID(), uid: 0, gid: 0, pid: 1)
        other.connected(peer)
        other.handle(.line(#"{"command":"seek","to":1}"#), from: peer)
        #expect((transport.waitForObjects(1, for: peer.id).first?["error"] as? String)?.contains("cannot seek") == true)
        #expect(still.seekTimes.isEmpty)
    }

    /// A load's reply says how many items and how many are downloaded first; a refused config gives
    /// its diagnostics. The hand-over itself is the host's.
    @Test func aLoadIsAnsweredWithWhatTheHostDid() {
        host.answerLoads(with: .success(LoadOutcome(itemCount: 3, warnings: ["a.yaml:2:3: warning: x"], staged: 2)))
        let reply = ask(#"{"command":"load","path":"/etc/marquee/a.yaml","mode":"append"}"#)
        #expect(reply["ok"] as? Bool == true && reply["items"] as? Int == 3 && reply["staged"] as? Int == 2 && reply["mode"] as? String == "append")
        #expect(host.loaded == [ControlLoad(source: .path("/etc/marquee/a.yaml"), mode: .append)])
        host.answerLoads(with: .failure(LoadRejection(summary: "b.yaml rejected (1 error)", diagnostics: ["b.yaml:1:1: error: y"])))
        let refused = ask(#"{"command":"load","path":"/etc/marquee/b.yaml"}"#)
        #expect(refused["ok"] as? Bool == false && refused["diagnostics"] as? [String] == ["b.yaml:1:1: error: y"])
        #expect(player.actions.isEmpty, "a load never goes on the command path")
    }

    /// With `wait`, the reply comes when the host says the player has the playlist (after its
    /// downloads), or says it false when a newer plan came first; without it, at once.
    @Test func aWaitingLoadIsAnsweredAtItsHandOver() {
        let peer = ControlPeer(id: ControlPeer.allocateID(), uid: 0, gid: 0, pid: 1)
        service.connected(peer)
        host.answerLoads(with: .success(LoadOutcome(itemCount: 2, staged: 1)))
        // The service loads off the caller's thread: each hand-over is told once the host has the load.
        func waitForLoads(_ count: Int) {
            let deadline = ContinuousClock.now + .seconds(5)
            while host.loaded.count < count && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        service.handle(.line(#"{"command":"load","path":"/etc/marquee/a.yaml","wait":true}"#), from: peer)
        waitForLoads(1)
        #expect(host.loaded.last == ControlLoad(source: .path("/etc/marquee/a.yaml"), mode: .replace, waits: true))
        Thread.sleep(forTimeInterval: 0.2)
        #expect(transport.objects(for: peer.id).isEmpty, "no reply before the hand-over")
        host.handOver(.taken)
        let taken = transport.waitForObjects(1, for: peer.id)
        #expect(taken.count == 1 && taken.first?["ok"] as? Bool == true && taken.first?["playing"] as? Bool == true
                && taken.first?["staged"] as? Int == 1, "\(taken)")

        service.handle(.line(#"{"command":"load","path":"/etc/marquee/b.yaml","wait":true}"#), from: peer)
        waitForLoads(2)
        host.handOver(.superseded)
        let replaced = transport.waitForObjects(2, for: peer.id)
        #expect(replaced.count == 2 && replaced.last?["ok"] as? Bool == false
                && (replaced.last?["error"] as? String)?.contains("replaced by a newer plan") == true, "\(replaced)")

        // Handed over before the host's load returned: one reply all the same.
        host.answerLoads(with: .success(LoadOutcome(itemCount: 1)), handingOverAtOnce: .taken)
        service.handle(.line(#"{"command":"load","path":"/etc/marquee/c.yaml","wait":true}"#), from: peer)
        let early = transport.waitForObjects(3, for: peer.id)
        #expect(early.count == 3 && early.last?["playing"] as? Bool == true, "\(early)")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(transport.objects(for: peer.id).count == 3)
    }

    @Test func aScreenshotIsReturnedOrWrittenIntoTheFolder() {
        let returned = ask(#"{"command":"screenshot"}"#, role: .observe)
        #expect(returned["png"] as? String == Data([0x89, 0x50, 0x4E, 0x47]).base64EncodedString() && returned["width"] as? Int == 4)
        let written = ask(#"{"command":"screenshot","path":"now.png"}"#)
        #expect(written["path"] as? String == "/var/lib/marquee/screenshots/now.png" && written["png"] == nil)
        #expect(ask(#"{"command":"screenshot","path":"now.png"}"#, role: .control)["ok"] as? Bool == false)
    }
}
