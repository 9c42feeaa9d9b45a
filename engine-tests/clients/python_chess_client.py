#!/usr/bin/env python3
"""Drives the Fission binary with python-chess's `chess.engine`, as a GUI or
lichess-bot would: full games of atomic and chess at short time controls
(every move checked by python-chess), and a MultiPV 3 analysis.

Usage: python_chess_client.py [PATH_TO_FISSION] [--games N]
The binary defaults to $FISSION_BIN. Exits non-zero on any failure.
"""
import os
import sys
import time

import chess
import chess.engine
import chess.variant


def play_game(engine, board, base_ms, inc_ms, max_plies=300):
    """Plays one game with real clocks; returns (result, plies, flagged)."""
    clocks = {chess.WHITE: base_ms / 1000.0, chess.BLACK: base_ms / 1000.0}
    inc = inc_ms / 1000.0
    plies = 0
    while not board.is_game_over(claim_draw=True) and plies < max_plies:
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=inc, black_inc=inc)
        start = time.monotonic()
        result = engine.play(board, limit)
        spent = time.monotonic() - start
        side = board.turn
        clocks[side] -= spent
        if clocks[side] < 0:
            return ("flag", plies, True)
        clocks[side] += inc
        move = result.move
        assert move is not None, f"engine returned no move in {board.fen()}"
        assert move in board.legal_moves, f"illegal move {move} in {board.fen()}"
        board.push(move)
        plies += 1
    return (board.result(claim_draw=True), plies, False)


def analyse_multipv(engine, board):
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    assert len(infos) == 3, f"expected 3 lines, got {len(infos)}"
    firsts = set()
    for info in infos:
        assert "pv" in info and info["pv"], info
        assert "score" in info, info
        assert info["pv"][0] in board.legal_moves
        firsts.add(info["pv"][0])
    assert len(firsts) == 3, "MultiPV lines must start with different moves"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    games = 2
    if "--games" in sys.argv:
        games = int(sys.argv[sys.argv.index("--games") + 1])
        args = [a for a in args if a != str(games)]
    path = args[0] if args else os.environ.get("FISSION_BIN")
    if not path:
        sys.exit("no engine binary given (argument or FISSION_BIN)")
    engine = chess.engine.SimpleEngine.popen_uci(path)
    try:
        assert engine.id.get("name", "").startswith("Fission"), engine.id
        assert "UCI_Variant" in engine.options
        flags = 0
        total = 0
        for i in range(games):
            for make in (chess.variant.AtomicBoard, chess.Board):
                board = make()
                res, plies, flagged = play_game(engine, board, base_ms=2000, inc_ms=20)
                flags += flagged
                total += 1
                print(f"{board.uci_variant} game {i + 1}: {res} in {plies} plies")
        assert flags == 0, f"{flags} of {total} games lost on time"
        for board in (chess.variant.AtomicBoard(), chess.Board()):
            analyse_multipv(engine, board)
        # An atomic position where the king can be blown up at once.
        board = chess.variant.AtomicBoard("rnbqkbnr/1ppppppp/8/p5N1/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 3")
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        assert info["score"].white() == chess.engine.Mate(1), info
        assert info["pv"][0] == chess.Move.from_uci("g5f7"), info
        print("multipv and atomic analysis ok")
    finally:
        engine.quit()
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
