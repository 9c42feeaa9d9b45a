#!/usr/bin/env python3
"""Reads a PGN written by `fission match` with python-chess and checks it:
every game parses without errors, every move replays legally in the game's
variant, and games ended by the rules end in the position the result says.

Usage: check_pgn.py FILE EXPECTED_GAMES
"""
import sys

import chess
import chess.pgn
import chess.variant


def main():
    path, expected = sys.argv[1], int(sys.argv[2])
    n = 0
    with open(path) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            n += 1
            assert not game.errors, f"game {n}: {game.errors}"
            board = game.board()
            variant = game.headers.get("Variant", "Standard")
            if variant == "Atomic":
                assert isinstance(board, chess.variant.AtomicBoard), type(board)
            plies = 0
            for move in game.mainline_moves():
                assert move in board.legal_moves, f"game {n}: {move} illegal in {board.fen()}"
                board.push(move)
                plies += 1
            assert plies == int(game.headers["PlyCount"]), f"game {n}: ply count"
            result = game.headers["Result"]
            if game.headers["Termination"] == "normal" and board.is_game_over(claim_draw=True):
                assert board.result(claim_draw=True) == result, f"game {n}: {board.result()} vs {result}"
    assert n == expected, f"expected {expected} games, read {n}"
    print(f"{n} games ok")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
