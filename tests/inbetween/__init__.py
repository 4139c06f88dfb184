"""Tests of the In-Between engine, rules, odds and bots."""
