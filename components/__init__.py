"""Stateless UI functions shared by pages."""
